// Per-effect cost: nanoseconds per stereo frame each effect adds to the base patch in Node.
// Each effect is measured in rounds of (reference synth, base patch, base patch + the effect), in
// passes spread over the bench run (bench/measure.ts, Passes). The cost is the effect's fastest
// render minus the base patch's fastest over every round of every effect: the base is rendered
// 450 times in a quick run, so its best is steady, and a cheap effect's cost is not the
// difference of two equally noisy figures.
// `npx tsx bench/fx-cost.ts [id ...]` (no ids: every effect) prints them sorted; bench/run.ts
// puts them in its results as rows of kind "fx".

import { fileURLToPath } from "node:url";
import { EFFECTS } from "../dsp/host/model/catalogue";
import { nodeRenderer } from "./dsp";
import { FS, Passes, REFERENCE_ID, makeRow } from "./measure";
import { basePatch } from "./patches";
import { NodeYardstick } from "./reference";
import type { BenchRow } from "./schema";

/** Audio per repeat: 6 to 20 ms of work, short enough that some repeats miss other processes. */
const SECONDS = 20;

const nsPerFrame = (xRealtime: number) => 1e9 / (xRealtime * FS);

export interface FxBench {
  pass(): void;
  rows(): BenchRow[];
}

/** Quick: 5 rounds per pass (15 repeats over three passes); full: 10 (30). */
export function fxBench(quick: boolean, yard: NodeYardstick, ids: string[] = []): FxBench {
  const n = quick ? 5 : 10;
  const base = nodeRenderer(basePatch());
  const passes = new Passes(yard.sample);
  const effects = EFFECTS.filter((d) => ids.length === 0 || ids.includes(d.id));
  for (const d of effects) {
    const s = basePatch();
    s.effects[d.id] = { ...s.effects[d.id], enabled: true };
    const withFx = nodeRenderer(s);
    passes.add(d.id, [() => nsPerFrame(base(SECONDS)), () => nsPerFrame(withFx(SECONDS))]);
  }
  const rows = (): BenchRow[] => {
    const baseNs = Math.min(...effects.flatMap((d) => passes.get(d.id).samples[0]));
    return effects
      .map((d) => {
        const { yard, samples } = passes.get(d.id);
        return makeRow(
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
          samples[1].map((ns) => ns - baseNs),
          yard,
        );
      })
      .sort((a, b) => b.value - a.value);
  };
  return { pass: () => passes.pass(n), rows };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const fx = fxBench(false, await NodeYardstick.create(), process.argv.slice(2));
  for (let i = 0; i < 3; i++) fx.pass();
  const rows = fx.rows();
  console.log(`base patch: ${Number(rows[0]?.details?.baseNsPerFrame).toFixed(1)} ns/frame`);
  for (const r of rows) console.log(`${r.id.slice(3).padEnd(22)} ${r.value.toFixed(1).padStart(6)} ns/frame (best of ${r.samples.length}, spread ${r.spreadPercent.toFixed(0)} %)`);
}
