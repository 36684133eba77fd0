// `npm run bench` (10 minutes of audio per row) or `npm run bench -- --quick` (a few seconds per
// row, as CI runs it). Prints a table and one machine-readable JSON line, writes bench/results.json,
// and exits non-zero only if the engine is slower than OfflineAudioContext (a broken build).

import { writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { runDsp } from "./dsp";
import { printExport, runExport } from "./export";

const quick = process.argv.includes("--quick");

const dsp = await runDsp(quick);
console.log(`\nbench/dsp (${quick ? "quick" : "full"}; Chromium ${dsp.chromium}; Node ${process.version})`);
console.log("| row | audio s | x realtime |");
console.log("|---|---:|---:|");
for (const r of dsp.rows) console.log(`| ${r.name}${r.note ? ` (${r.note})` : ""} | ${r.seconds} | ${r.xRealtime.toFixed(0)} |`);
for (const [k, v] of Object.entries(dsp.ratios)) console.log(`ratio ${k}: ${v.toFixed(2)}x`);
for (const [k, v] of Object.entries(dsp.quantum)) {
  console.log(
    `worst 128-frame quantum (${k}): ${(v.worstMs * 1000).toFixed(1)} us = ${v.worstPercent.toFixed(2)}% of 2.67 ms` +
      ` (median ${(v.medianMs * 1000).toFixed(1)} us; slowest single call incl. machine noise ${(v.worstRawMs * 1000).toFixed(1)} us)`,
  );
}
const exported = await runExport(quick);
printExport(exported);
const summary = { quick, date: new Date().toISOString(), node: process.version, ...dsp, export: exported };
console.log("BENCH_JSON " + JSON.stringify(summary));
writeFileSync(fileURLToPath(new URL("./results.json", import.meta.url)), JSON.stringify(summary, null, 2) + "\n");

const slower = Object.entries(dsp.ratios).filter(([, v]) => v < 1);
if (slower.length > 0) {
  console.error(`Engine slower than OfflineAudioContext (${slower.map(([k]) => k).join(", ")}): the build is broken.`);
  process.exit(1);
}
