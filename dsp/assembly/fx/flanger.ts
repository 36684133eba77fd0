// Flanger: a short delay swept between 1 and 5 ms by a sine LFO at `value` Hz (0.1-10), with
// feedback 0.6 (spec 9) around the delay: w[n] = x[n] + 0.6 w[n - D], out = (x + w[n - D]) / 2.
// The response peaks at multiples of 1/D (x1.75) and dips halfway between (x0.19, -19 dB), and
// the comb slides as D moves. The LFO starts at the shortest delay on reset; the right channel's
// LFO runs a quarter cycle ahead for width. The delay is computed per block from the f64 phase
// and ramps per frame (fractional read).

import { Effect } from "./effect";
import { DelayLine } from "../lib/delayline";
import { Smoothed, blockCoef } from "../lib/smooth";
import { ftz } from "../lib/space-util";

export const FLANGER_MIN_MS: f64 = 1.0;
export const FLANGER_MAX_MS: f64 = 5.0;
const FLANGER_FEEDBACK: f32 = 0.6;

export class Flanger extends Effect {
  left!: DelayLine;
  right!: DelayLine;
  rate: Smoothed = new Smoothed();
  phase: f64 = 0.0;
  dl: f32 = 0.0; // current delays in frames
  dr: f32 = 0.0;
  coef: f32 = 0.1;

  init(fs: f64): void {
    super.init(fs);
    this.coef = blockCoef(fs);
    const frames = <i32>Math.ceil(FLANGER_MAX_MS * 0.001 * fs) + 4;
    this.left = new DelayLine(frames);
    this.right = new DelayLine(frames);
  }

  set(value: f32, e1: f32, e2: f32, e3: f32): void {
    super.set(value, e1, e2, e3);
    this.rate.target = Mathf.max(value, 0.0);
  }

  delayAt(ph: f64): f32 {
    const s = 0.5 - 0.5 * Math.cos(2.0 * Math.PI * ph);
    return <f32>((FLANGER_MIN_MS + (FLANGER_MAX_MS - FLANGER_MIN_MS) * s) * 0.001 * this.fs);
  }

  reset(): void {
    this.rate.jump(this.rate.target);
    this.phase = 0.0;
    this.dl = this.delayAt(0.0);
    this.dr = this.delayAt(0.25);
    this.left.reset();
    this.right.reset();
  }

  process(l: usize, r: usize, n: i32): void {
    const r0 = <f64>this.rate.value;
    const r1 = <f64>this.rate.step(this.coef);
    let ph = this.phase + (r0 + r1) * 0.5 * <f64>n / this.fs;
    ph -= Math.floor(ph);
    this.phase = ph;
    const dl1 = this.delayAt(ph);
    const dr1 = this.delayAt(ph + 0.25);
    const sl = (dl1 - this.dl) / <f32>n;
    const sr = (dr1 - this.dr) / <f32>n;
    // w[n - D] is what the line returns D - 1 writes back, just before w[n] is written.
    let dl = this.dl - 1.0, dr = this.dr - 1.0;
    const a = this.left, b = this.right;
    for (let i = 0; i < n; i++) {
      dl += sl;
      dr += sr;
      const o = <usize>i << 2;
      const xl = load<f32>(l + o);
      const xr = load<f32>(r + o);
      const wl = a.readFrac(dl);
      const wr = b.readFrac(dr);
      a.write(ftz(xl + FLANGER_FEEDBACK * wl));
      b.write(ftz(xr + FLANGER_FEEDBACK * wr));
      store<f32>(l + o, 0.5 * (xl + wl));
      store<f32>(r + o, 0.5 * (xr + wr));
    }
    this.dl = dl1;
    this.dr = dr1;
  }
}
