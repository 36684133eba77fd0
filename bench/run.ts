// `npm run bench [-- --quick] [--json out.json] [--compare baseline.json] [--tolerance 10]`
// Full: 10 minutes of audio per DSP row and a real 12-hour export; --quick: a few seconds per
// row, as CI runs it. Then every export format, CLI and Chromium's export worker
// (bench/export-formats.ts: --quick 2 minutes of the base patch, full 1 hour of it and of 16
// voices; about 40 s and 12 min). Then the UI rows (bench/ui.ts): the studio playing on a
// phone-sized page, CPU throttled x4 and not, 20 s each (--quick: 5 s). Then the API rows (bench/api.ts): the server
// under autocannon on loopback, 10 s per route (--quick: 3 s), never gating. Prints a table and one BENCH_JSON line (the
// results without their repeats); writes the results (bench/SCHEMA.md) to --json (default
// bench/results.json) with a Markdown summary (.md) and an HTML report (.html) beside it. Exits 1
// when the engine is slower than OfflineAudioContext (a broken build) or, with --compare, when a
// row fell by more than the tolerance (after up to three confirming passes) or went missing; 2 on a bad argument or baseline. A missed
// UI target is shown in the table and the reports but does not change the exit code.

import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { compareResults, confirmFalls, describeComparison, readBenchFile, type Comparison } from "./compare";
import { chromiumBench, nodeBench } from "./dsp";
import { describeCli, runExport } from "./export";
import { formatsTable, runExportFormats } from "./export-formats";
import { fmtRelative, fmtRepeats, fmtTarget, fmtValue, pct } from "./format";
import { fxBench } from "./fx-cost";
import { voiceBench } from "./voice-cost";
import { NodeYardstick } from "./reference";
import { htmlReport } from "./report-html";
import { markdownReport } from "./report-md";
import { SCHEMA_VERSION, benchResultSchema, type BenchResult, type BenchRow } from "./schema";
import { uiBench } from "./ui";
import { apiBench, apiTable } from "./api";

/** Extra passes at most before a fallen gating row fails the run (about 20 s each, quick). */
const CONFIRM_PASSES = 3;

function fail(message: string): never {
  console.error(message);
  process.exit(2);
}

function gitCommit(): string | null {
  try {
    return execFileSync("git", ["describe", "--always", "--dirty"], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim();
  } catch {
    return null;
  }
}

function printRows(title: string, rows: BenchRow[]): void {
  if (rows.length === 0) return;
  console.log(`\n${title}`);
  console.log("| row | audio s | result | repeats | machine-independent | target |");
  console.log("|---|---:|---:|---|---|---|");
  for (const r of rows) console.log(`| ${r.name} | ${r.audioSeconds ?? ""} | ${fmtValue(r)} | ${fmtRepeats(r)} | ${fmtRelative(r.relative, r)} | ${fmtTarget(r)} |`);
}

const args = (() => {
  try {
    return parseArgs({
      options: { quick: { type: "boolean", default: false }, json: { type: "string" }, compare: { type: "string" }, tolerance: { type: "string" } },
    }).values;
  } catch (err) {
    return fail(`${err instanceof Error ? err.message : String(err)}\nusage: npm run bench -- [--quick] [--json out.json] [--compare baseline.json] [--tolerance 10]`);
  }
})();
const quick = args.quick;
const tolerance = args.tolerance === undefined ? undefined : Number(args.tolerance);
if (tolerance !== undefined && !(tolerance > 0 && tolerance < 100)) fail(`--tolerance takes a percentage between 0 and 100, not ${args.tolerance}`);
// Read the baseline before spending a minute on the bench: a bad one is a clear error at once.
let baseline: BenchResult | null = null;
try {
  baseline = args.compare ? readBenchFile(args.compare) : null;
} catch (err) {
  fail(err instanceof Error ? err.message : String(err));
}
if (baseline && baseline.mode !== (quick ? "quick" : "full")) {
  fail(`${args.compare} is a ${baseline.mode} baseline; compare like with like (${baseline.mode === "quick" ? "add" : "drop"} --quick).`);
}
const jsonFile = resolve(args.json ?? fileURLToPath(new URL("./results.json", import.meta.url)));

const t0 = performance.now();
const loadAverage = loadavg();
const yard = await NodeYardstick.create();
// The Node, Chromium and per-effect rows take their repeats in three passes spread over the run,
// the exports between the first two (bench/measure.ts, Passes): a burst of load from another
// process rarely covers all three.
const node = nodeBench(quick, yard);
const fx = fxBench(quick, yard);
const voices = voiceBench(quick, yard);
const chrome = await chromiumBench(quick);
let exported: Awaited<ReturnType<typeof runExport>> | undefined;
try {
  for (let pass = 0; pass < 3; pass++) {
    node.pass();
    await chrome.pass();
    fx.pass();
    voices.pass();
    if (pass === 0) exported = await runExport(quick, yard);
  }
  // A gating row that fell is measured again before it fails the run: up to CONFIRM_PASSES more
  // passes of every row (each keeps its best repeat, so a real slowdown stays while a burst of
  // load that covered one row's repeats, and not its yardstick's, is outgrown). Checked on the
  // rows measured so far (the UI and API rows never gate).
  if (baseline && exported) {
    const measured = exported.rows;
    const partial = (): BenchResult => ({ ...baseline, rows: [yard.row(), ...node.rows(), ...chrome.rows(), ...measured, ...fx.rows()] });
    await confirmFalls(
      () => compareResults(partial(), baseline, tolerance).verdicts,
      async (fell, pass) => {
        console.log(`confirming ${fell.map((f) => `${f.id} ${pct(f.changePercent)}`).join(", ")}: one more pass of every row (${pass} of ${CONFIRM_PASSES})`);
        node.pass();
        await chrome.pass();
        fx.pass();
      },
      CONFIRM_PASSES,
    );
  }
} finally {
  await chrome.close();
}
if (!exported) throw new Error("the export bench did not run");
// Every export format from the CLI and from the studio's export worker (bench/export-formats.ts),
// with the engine bench's browser closed: it launches its own Chromium with a profile on disk.
const formats = await runExportFormats({ lengths: quick ? [120] : [3600], voices: !quick, browser: true, yard, print: false });
// Last, alone on the machine: its own server and browser, the studio playing in real time.
const ui = await uiBench(quick);
// Then the API under load: its own server, autocannon on loopback (absolute rows, never gating).
const api = await apiBench({ durationSeconds: quick ? 3 : 10, connections: 50 });
const result: BenchResult = benchResultSchema.parse({
  schemaVersion: SCHEMA_VERSION,
  mode: quick ? "quick" : "full",
  date: new Date().toISOString(),
  commit: gitCommit(),
  durationSeconds: (performance.now() - t0) / 1000,
  machine: { cpu: cpus()[0]?.model ?? "unknown", cores: cpus().length, platform: process.platform, arch: process.arch, node: process.version, chromium: chrome.version, loadAverage },
  rows: [yard.row(), ...node.rows(), ...chrome.rows(), ...exported.rows, ...formats.rows, ...fx.rows(), ...voices.rows(), ...ui.rows, ...api.rows],
  checks: [...chrome.checks(), ...exported.checks, ...formats.checks],
});

console.log(`\nbench (${result.mode}; ${result.machine.cpu} x${result.machine.cores}; Node ${result.machine.node}; Chromium ${result.machine.chromium}; ${result.durationSeconds.toFixed(0)} s)`);
printRows(
  "DSP (yardsticks: Chromium's OfflineAudioContext and the wasm reference synth) and UI (the studio on a phone: absolute, against targets)",
  result.rows.filter((r) => r.kind === "dsp" || r.kind === "yardstick" || r.kind === "ui"),
);
printRows("export", result.rows.filter((r) => r.kind === "export"));
console.log(describeCli(exported.cli));
console.log(`\nexport formats (bench/export-formats.ts)\n${formatsTable(formats.runs)}`);
if (formats.misses.length) console.log(`export-format targets missed: ${formats.misses.join("; ")}`);
printRows("per-effect cost (ns per frame added to the base patch)", result.rows.filter((r) => r.kind === "fx"));
printRows("per-voice cost (ns per frame added to silent voices)", result.rows.filter((r) => r.kind === "voice"));
console.log(`\nAPI under load (bench/api.ts; absolute, never gates)\n${apiTable(result.rows.filter((r) => r.kind === "api"))}`);
for (const c of result.checks) console.log(`check: ${c.name}: ${c.ok === null ? "not measured in this mode" : c.ok ? "met" : "MISSED"}`);

let comparison: Comparison | null = null;
if (baseline) comparison = compareResults(result, baseline, tolerance);
// The one-line summary leaves out each row's repeats (the JSON file has them).
console.log("BENCH_JSON " + JSON.stringify({ ...result, rows: result.rows.map(({ samples: _s, ...r }) => r) }));
mkdirSync(dirname(jsonFile), { recursive: true });
const stem = jsonFile.replace(/\.json$/, "");
writeFileSync(jsonFile, JSON.stringify(result, null, 2) + "\n");
writeFileSync(`${stem}.md`, markdownReport(result, comparison));
writeFileSync(`${stem}.html`, htmlReport(result, comparison));
console.log(`wrote ${jsonFile}, ${stem}.md, ${stem}.html`);
if (comparison) console.log(describeComparison(comparison));

const slower = chrome.checks().filter((c) => c.ok === false);
if (slower.length > 0) console.error(`Engine slower than OfflineAudioContext (${slower.map((c) => c.name).join(", ")}): the build is broken.`);
process.exit(slower.length > 0 || (comparison?.failures.length ?? 0) > 0 ? 1 : 0);
