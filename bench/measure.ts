// How every bench row is measured and turned into a schema row: repeats taken in rounds,
// interleaved with the row's yardstick (so both see the same load on a shared machine), the best
// repeat of each kept, and the machine-independent `relative` figure that --compare uses.

import type { BenchRow } from "./schema";

export const FS = 48000;

/** The Node yardstick's row id (bench/reference.ts); a new kernel takes a new id. */
export const REFERENCE_ID = "yardstick/wasm-reference-synth-v1";
/** The yardstick row of Chromium's OfflineAudioContext rendering `patch` ("base", "comparison"). */
export const oacId = (patch: string) => `yardstick/oac-${patch}`;

/** Nanoseconds per unit, for rows whose unit is a time (per frame or per call). */
const NS_PER_UNIT: Record<string, number> = { "ns/frame": 1, us: 1e3, ms: 1e6 };

export type Better = BenchRow["better"];

export function best(samples: readonly number[], better: Better): number {
  return better === "higher" ? Math.max(...samples) : Math.min(...samples);
}

/** (worst - best) / |best| in percent. */
export function spreadPercent(samples: readonly number[], better: Better): number {
  const b = best(samples, better);
  const w = better === "higher" ? Math.min(...samples) : Math.max(...samples);
  return (Math.abs(w - b) / (Math.abs(b) || 1)) * 100;
}

/** The figure --compare uses. Higher-is-better rows are throughputs divided by a throughput
 *  yardstick (engine x realtime / OfflineAudioContext x realtime). Lower-is-better rows are times,
 *  expressed in frames of the yardstick's own work: time / (1 s / (yardstick x realtime * FS)). */
export function relativeOf(value: number, unit: string, better: Better, yardstickXRealtime: number): number {
  if (better === "higher") return value / yardstickXRealtime;
  const ns = NS_PER_UNIT[unit];
  if (ns === undefined) throw new Error(`no time unit ${unit} for a lower-is-better row`);
  return (value * ns * yardstickXRealtime * FS) / 1e9;
}

export type RowSpec = Omit<BenchRow, "value" | "samples" | "spreadPercent" | "yardstickValue" | "relative">;

/** A schema row from its repeats and the yardstick's repeats taken in the same rounds. */
export function makeRow(spec: RowSpec, samples: number[], yardstickSamples: number[] | null): BenchRow {
  const value = best(samples, spec.better);
  const yardstickValue = yardstickSamples ? best(yardstickSamples, "higher") : null;
  return {
    ...spec,
    value,
    samples,
    spreadPercent: spreadPercent(samples, spec.better),
    yardstickValue,
    relative: yardstickValue === null ? null : relativeOf(value, spec.unit, spec.better, yardstickValue),
  };
}

/** Runs `n` rounds of every step in order (step 0, step 1, ..., then again), so each step's
 *  repeats are spread over the same stretch of time; returns each step's samples. */
export function rounds(n: number, steps: (() => number)[]): number[][] {
  const out = steps.map(() => [] as number[]);
  for (let i = 0; i < n; i++) steps.forEach((step, k) => out[k].push(step()));
  return out;
}

/** Repeats gathered in passes spread over the whole bench run (bench/run.ts calls pass() at its
 *  start, middle and end): each pass runs a few rounds of (yardstick, the entry's steps) for every
 *  entry in turn. On a shared machine a burst of load from another process can last longer than
 *  all of one row's repeats taken back to back (and a busy sibling hyperthread slows SIMD code
 *  more than the scalar yardstick), but not the whole run. */
export class Passes {
  private readonly entries = new Map<string, { steps: (() => number)[]; yard: number[]; samples: number[][] }>();

  constructor(private readonly yardstick: () => number) {}

  add(key: string, steps: (() => number)[]): void {
    this.entries.set(key, { steps, yard: [], samples: steps.map(() => []) });
  }

  pass(n: number): void {
    for (const e of this.entries.values()) {
      const [yard, ...samples] = rounds(n, [this.yardstick, ...e.steps]);
      e.yard.push(...yard);
      samples.forEach((s, k) => e.samples[k].push(...s));
    }
  }

  /** The yardstick's samples and each step's, over every pass so far. */
  get(key: string): { yard: number[]; samples: number[][] } {
    const e = this.entries.get(key);
    if (!e) throw new Error(`no entry ${key}`);
    return e;
  }
}

export async function roundsAsync(n: number, steps: (() => Promise<number>)[]): Promise<number[][]> {
  const out = steps.map(() => [] as number[]);
  for (let i = 0; i < n; i++) for (const [k, step] of steps.entries()) out[k].push(await step());
  return out;
}
