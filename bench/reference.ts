// The Node yardstick: a fixed reference synth that stands for "how fast is this machine's single
// core right now". Rows measured in Node (the engine, the export pipeline, per-effect costs, worst
// quanta, the CLI) are divided by it, so a slower or busier CI machine does not look like a
// regression. It shares no code with the engine, so an engine regression cannot hide in it.
// It is WebAssembly compiled from the AssemblyScript below when the bench starts: a plain
// JavaScript kernel was tried first and is unusable here, because V8's JIT settles on code up to
// 2.5x slower in some processes than in others (wasm, once tiered up, runs the same code every
// time). Never change the kernel: every committed baseline's ratios are relative to it (change
// REFERENCE_ID in bench/measure.ts instead, and make a new baseline).

import asc from "assemblyscript/asc";
import { FS, REFERENCE_ID, makeRow } from "./measure";
import type { BenchRow } from "./schema";

/** Four phase-accumulator oscillators (parabolic sine) at the base patch's pitches, summed, one
 *  RBJ-cookbook biquad low-pass (2 kHz, Q 0.707) and a soft clip x / (1 + |x|); f64, scalar, no
 *  memory. Returns a checksum so the optimiser cannot drop the work. */
const KERNEL = `
const FS: f64 = 48000;
export function run(frames: i32): f64 {
  let p0: f64 = 0, p1: f64 = 0.25, p2: f64 = 0.5, p3: f64 = 0.75;
  const w = 2 * Math.PI * 2000 / FS;
  const alpha = Math.sin(w) / (2 * 0.707);
  const a0 = 1 + alpha;
  const b0 = (1 - Math.cos(w)) / 2 / a0, b1 = (1 - Math.cos(w)) / a0, a1 = -2 * Math.cos(w) / a0, a2 = (1 - alpha) / a0;
  let x1: f64 = 0, x2: f64 = 0, y1: f64 = 0, y2: f64 = 0, sum: f64 = 0;
  for (let i = 0; i < frames; i++) {
    p0 += 432 / FS; if (p0 >= 1) p0 -= 1;
    p1 += 528 / FS; if (p1 >= 1) p1 -= 1;
    p2 += 639 / FS; if (p2 >= 1) p2 -= 1;
    p3 += 741 / FS; if (p3 >= 1) p3 -= 1;
    const t0 = 2 * p0 - 1, t1 = 2 * p1 - 1, t2 = 2 * p2 - 1, t3 = 2 * p3 - 1;
    const x = t0 * (1 - abs(t0)) + t1 * (1 - abs(t1)) + t2 * (1 - abs(t2)) + t3 * (1 - abs(t3));
    const y = b0 * x + b1 * x1 + b0 * x2 - a1 * y1 - a2 * y2;
    x2 = x1; x1 = x; y2 = y1; y1 = y;
    sum += y / (1 + abs(y));
  }
  return sum;
}`;

/** The bench process's Node yardstick: rows take a sample in each of their rounds; every sample
 *  is kept, and the yardstick's own row reports the best of them all. */
export class NodeYardstick {
  readonly samples: number[] = [];

  private constructor(
    private readonly run: (frames: number) => number,
    private readonly seconds: number,
  ) {}

  /** `seconds` of reference audio per sample (20 s: about 6 ms on the project's machine). */
  static async create(seconds = 20): Promise<NodeYardstick> {
    const out = await asc.compileString(KERNEL, { optimizeLevel: 3, runtime: "stub" });
    if (out.error || !out.binary) throw new Error(`reference synth did not compile: ${out.error?.message}\n${out.stderr.toString()}`);
    const run = new WebAssembly.Instance(new WebAssembly.Module(new Uint8Array(out.binary)), {}).exports.run as (frames: number) => number;
    // Tier-up: V8 starts wasm in its baseline compiler and swaps in optimised code between calls.
    for (let i = 0; i < 30; i++) run(FS * 20);
    return new NodeYardstick(run, seconds);
  }

  /** One sample: x realtime of the reference synth. */
  readonly sample = (): number => {
    const t0 = performance.now();
    const checksum = this.run(Math.round(this.seconds * FS));
    const x = this.seconds / ((performance.now() - t0) / 1000);
    if (!Number.isFinite(checksum)) throw new Error("reference synth diverged");
    this.samples.push(x);
    return x;
  };

  row(): BenchRow {
    return makeRow(
      {
        id: REFERENCE_ID,
        kind: "yardstick",
        name: "Node yardstick: wasm reference synth (4 oscillators, biquad, soft clip; f64 scalar)",
        unit: "x realtime",
        better: "higher",
        audioSeconds: this.seconds,
        yardstick: null,
      },
      this.samples,
      null,
    );
  }
}
