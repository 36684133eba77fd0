// Per-effect cost: nanoseconds per stereo frame each effect adds to the base patch in Node.
// Each effect is measured in rounds of (reference synth, base patch, base patch + the effect), so
// the base it is subtracted from and the yardstick it is divided by see the same load; the cost
// is the effect's fastest render minus the base's fastest.
// `npx tsx bench/fx-cost.ts [id ...]` (no ids: every effect) prints them sorted; bench/run.ts
// puts them in its results as rows of kind "fx".

import { fileURLToPath } from "node:url";
import { EFFECTS } from "../dsp/host/catalogue";
import { nodeRenderer } from "./dsp";
import { FS, REFERENCE_ID, makeRow, rounds } from "./measure";
import { basePatch } from "./patches";
import { NodeYardstick } from "./reference";
import type { BenchRow } from "./schema";

/** Audio per repeat: 6 to 20 ms of work, short enough that some repeats miss other processes. */
const SECONDS = 20;

const nsPerFrame = (xRealtime: number) => 1e9 / (xRealtime * FS);

export function runFxCost(quick: boolean, yard: NodeYardstick, ids: string[] = []): BenchRow[] {
  const n = quick ? 15 : 31;
  const base = nodeRenderer(basePatch());
  const rows: BenchRow[] = [];
  for (const d of EFFECTS) {
    if (ids.length > 0 && !ids.includes(d.id)) continue;
    const s = basePatch();
    s.effects[d.id] = { ...s.effects[d.id], enabled: true };
    const withFx = nodeRenderer(s);
    const [yardSamples, baseSamples, fxSamples] = rounds(n, [yard.sample, () => base(SECONDS), () => withFx(SECONDS)]);
    const baseNs = nsPerFrame(Math.max(...baseSamples));
    const row = makeRow(
      {
        id: `fx/${d.id}`,
        kind: "fx",
        name: d.name,
        unit: "ns/frame",
        better: "lower",
        audioSeconds: SECONDS,
        yardstick: REFERENCE_ID,
        details: { baseNsPerFrame: baseNs },
      },
      fxSamples.map((x) => nsPerFrame(x) - baseNs),
      yardSamples,
    );
    rows.push(row);
  }
  return rows.sort((a, b) => b.value - a.value);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const rows = runFxCost(false, await NodeYardstick.create(), process.argv.slice(2));
  console.log(`base patch: ${Number(rows[0]?.details?.baseNsPerFrame).toFixed(1)} ns/frame`);
  for (const r of rows) console.log(`${r.id.slice(3).padEnd(22)} ${r.value.toFixed(1).padStart(6)} ns/frame (best of ${r.samples.length}, spread ${r.spreadPercent.toFixed(0)} %)`);
}
