// A small, valid bench result built with the bench's own makeRow, for the comparison, schema and
// report tests: one Chromium engine row against its OfflineAudioContext yardstick, one Node row
// and two per-effect costs against the wasm reference synth.

import { REFERENCE_ID, makeRow } from "../../../bench/measure";
import { SCHEMA_VERSION, type BenchResult, type BenchRow } from "../../../bench/schema";

/** `scale` multiplies every row's speed (throughputs times scale, costs divided by it);
 *  `machine` every yardstick's, as a faster or slower machine would. */
export function fixture(options: { scale?: Record<string, number>; machine?: number } = {}): BenchResult {
  const m = options.machine ?? 1;
  const s = (id: string) => options.scale?.[id] ?? 1;
  const oac = [280 * m, 270 * m];
  const ref = [3800 * m, 3700 * m];
  const x = (id: string, v: number) => v * m * s(id);
  const cost = (id: string, ns: number) => ns / m / s(id);
  const rows: BenchRow[] = [
    makeRow({ id: REFERENCE_ID, kind: "yardstick", name: "Node yardstick", unit: "x realtime", better: "higher", audioSeconds: 20, yardstick: null }, ref, null),
    makeRow({ id: "yardstick/oac-base", kind: "yardstick", name: "base patch, Chromium OfflineAudioContext", unit: "x realtime", better: "higher", audioSeconds: 10, yardstick: null }, oac, null),
    makeRow(
      { id: "dsp/chromium/base", kind: "dsp", name: "base patch, engine in Chromium worker", unit: "x realtime", better: "higher", audioSeconds: 120, yardstick: "yardstick/oac-base", target: "relative >= 10" },
      [x("dsp/chromium/base", 3600), x("dsp/chromium/base", 3500)],
      oac,
    ),
    makeRow(
      { id: "dsp/node/base", kind: "dsp", name: "base patch, engine in Node", unit: "x realtime", better: "higher", audioSeconds: 20, yardstick: REFERENCE_ID },
      [x("dsp/node/base", 3550), x("dsp/node/base", 3400)],
      ref,
    ),
    makeRow({ id: "fx/reverb", kind: "fx", name: "Reverb", unit: "ns/frame", better: "lower", audioSeconds: 20, yardstick: REFERENCE_ID }, [cost("fx/reverb", 4.8), cost("fx/reverb", 5.1)], ref),
    makeRow({ id: "fx/gate", kind: "fx", name: "Gate", unit: "ns/frame", better: "lower", audioSeconds: 20, yardstick: REFERENCE_ID }, [cost("fx/gate", 0.5), cost("fx/gate", 0.7)], ref),
  ];
  return {
    schemaVersion: SCHEMA_VERSION,
    mode: "quick",
    date: "2026-11-23T12:00:00.000Z",
    commit: "abc1234",
    durationSeconds: 35,
    machine: { cpu: "Test CPU", cores: 2, platform: "linux", arch: "x64", node: "v20.20.2", chromium: "156.0.8078.79", loadAverage: [1, 1, 1] },
    rows,
    checks: [{ name: "base patch, engine in Chromium worker faster than OfflineAudioContext", ok: true }],
  };
}

/** The fixture as a baseline made by bench/spread.ts, with each row's ten-run spread. */
export function baselineWithSpread(spread: Record<string, number>, tolerancePercent = 10): BenchResult {
  const b = fixture();
  const rows = Object.fromEntries(
    b.rows.map((r) => {
      const f = r.relative ?? r.value;
      return [r.id, { min: f, median: f, max: f, spreadPercent: spread[r.id] ?? 2 }];
    }),
  );
  return { ...b, stability: { runs: 10, tolerancePercent, rows } };
}
