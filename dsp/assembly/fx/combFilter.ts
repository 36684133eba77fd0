// Comb Filter: a feedback comb y[n] = x[n] + 0.7 y[n - D] with D = `value` ms (0.1-20), peaks at
// multiples of 1/D and notches halfway between (spec 9: feedback 0.7). The output is scaled by
// sqrt(1 - 0.7^2) so a broadband input keeps its power (peaks +7.5 dB, notches -7.5 dB).
// D is smoothed per block and ramps per frame (fractional, linearly interpolated read).

import { Effect } from "./effect";
import { DelayLine } from "../lib/delayline";
import { Smoothed, blockCoef } from "../lib/smooth";
import { ftz } from "../lib/space-util";

const COMB_FEEDBACK: f32 = 0.7;
const COMB_GAIN: f32 = 0.714142842854285; // sqrt(1 - 0.49)
const MAX_MS: f64 = 25.0;

export class CombFilter extends Effect {
  left!: DelayLine;
  right!: DelayLine;
  delay: Smoothed = new Smoothed(); // frames
  coef: f32 = 0.1;

  init(fs: f64): void {
    super.init(fs);
    this.coef = blockCoef(fs);
    const frames = <i32>Math.ceil(MAX_MS * 0.001 * fs) + 4;
    this.left = new DelayLine(frames);
    this.right = new DelayLine(frames);
  }

  set(value: f32, e1: f32, e2: f32, e3: f32): void {
    super.set(value, e1, e2, e3);
    const ms = Mathf.min(Mathf.max(value, 0.05), <f32>MAX_MS - 1.0);
    this.delay.target = <f32>(<f64>ms * 0.001 * this.fs);
  }

  reset(): void {
    this.delay.jump(this.delay.target);
    this.left.reset();
    this.right.reset();
  }

  process(l: usize, r: usize, n: i32): void {
    const d0 = this.delay.value;
    const d1 = this.delay.step(this.coef);
    const dd = (d1 - d0) / <f32>n;
    // y[n - D] is what the line returns D - 1 writes back, just before y[n] is written.
    let d = d0 - 1.0;
    const a = this.left, b = this.right;
    for (let i = 0; i < n; i++) {
      d += dd;
      const o = <usize>i << 2;
      const yl = ftz(load<f32>(l + o) + COMB_FEEDBACK * a.readFrac(d));
      const yr = ftz(load<f32>(r + o) + COMB_FEEDBACK * b.readFrac(d));
      a.write(yl);
      b.write(yr);
      store<f32>(l + o, yl * COMB_GAIN);
      store<f32>(r + o, yr * COMB_GAIN);
    }
  }
}
