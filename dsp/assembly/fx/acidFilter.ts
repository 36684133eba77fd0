// Acid Filter: a resonant low-pass (Q 6) whose cutoff a sine LFO at `value` Hz (0.1-20) sweeps
// exponentially between 180 Hz and 180 * 2^4.5 = 4.07 kHz, the squelch of a 303-style line.
// The filter is the trapezoidal SVF in lib/space-svf (cutoff updated every 16 frames, so even a
// 20 Hz sweep is smooth). The LFO starts at the bottom of the sweep on reset. Output gain 0.6
// keeps the resonant peak (x6 at the cutoff) near the dry level.

import { Effect } from "./effect";
import { Smoothed, blockCoef } from "../lib/smooth";
import { StereoSvf, svfG } from "../lib/space-svf";
import { cos2pi, exp2 } from "../lib/space-util";

export const ACID_LOW_HZ: f64 = 180.0;
export const ACID_OCTAVES: f64 = 4.5;
const ACID_K: f32 = 1.0 / 6.0;
const ACID_GAIN: f32 = 0.6;

export class AcidFilter extends Effect {
  svf: StereoSvf = new StereoSvf();
  rate: Smoothed = new Smoothed();
  phase: f64 = 0.0;
  coef: f32 = 0.1;

  init(fs: f64): void {
    super.init(fs);
    this.coef = blockCoef(fs);
  }

  set(value: f32, e1: f32, e2: f32, e3: f32): void {
    super.set(value, e1, e2, e3);
    this.rate.target = Mathf.max(value, 0.0);
  }

  cutoffG(ph: f64): f32 {
    const lfo = 0.5 - 0.5 * cos2pi(ph);
    return svfG(ACID_LOW_HZ * exp2(ACID_OCTAVES * lfo), this.fs);
  }

  reset(): void {
    this.rate.jump(this.rate.target);
    this.phase = 0.0;
    this.svf.reset(this.cutoffG(0.0));
  }

  process(l: usize, r: usize, n: i32): void {
    const r0 = <f64>this.rate.value;
    const r1 = <f64>this.rate.step(this.coef);
    let ph = this.phase + (r0 + r1) * 0.5 * <f64>n / this.fs;
    ph -= Math.floor(ph);
    this.phase = ph;
    this.svf.lowpass(l, r, n, this.cutoffG(ph), ACID_K, ACID_GAIN);
  }
}
