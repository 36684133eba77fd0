// Per-effect cost: nanoseconds per stereo frame each effect adds to the base patch (best of
// several runs, so other load on the machine inflates it least), and the all-30 throughput.
// `npx tsx bench/fx-cost.ts [id ...]` — no ids: every effect.

import { EFFECTS } from "../dsp/host/catalogue";
import { nodeThroughput } from "./dsp";
import { allEffectsPatch, basePatch } from "./patches";

const RUNS = 3;
const SECONDS = 10;

function nsPerFrame(state: ReturnType<typeof basePatch>): number {
  let best = Infinity;
  for (let i = 0; i < RUNS; i++) best = Math.min(best, 1e9 / (nodeThroughput(state, SECONDS) * 48000));
  return best;
}

const ids = process.argv.slice(2);
const base = nsPerFrame(basePatch());
console.log(`base patch: ${base.toFixed(1)} ns/frame (${(1e9 / base / 48000).toFixed(0)}x realtime)`);
const rows: [string, number][] = [];
for (const d of EFFECTS) {
  if (ids.length > 0 && !ids.includes(d.id)) continue;
  const s = basePatch();
  s.effects[d.id] = { ...s.effects[d.id], enabled: true };
  rows.push([d.id, nsPerFrame(s) - base]);
}
rows.sort((a, b) => b[1] - a[1]);
for (const [id, ns] of rows) console.log(`${id.padEnd(22)} ${ns.toFixed(1).padStart(6)} ns/frame`);
if (ids.length === 0) {
  const all = nsPerFrame(allEffectsPatch());
  console.log(`all 30 on: ${all.toFixed(1)} ns/frame = ${(1e9 / all / 48000).toFixed(0)}x realtime (target >= 200x, i.e. <= 104 ns)`);
}
