// A low-pass whose cutoff follows a periodic shape at `value` cycles per second: the shared base
// class (not a slot of its own) of the acid filter and the filter envelope, which differ only in
// the shape (cutoffHz), the damping k and the output gain. The rate is smoothed per block; the
// trapezoidal SVF (lib/filter/svf) takes the cutoff at the block's phase and updates it every 16
// frames.

import { Effect } from "./effect";
import { Smoothed, blockCoef } from "../lib/smooth";
import { StereoSvf, svfG } from "../lib/filter/svf";

export class SweptLowpass extends Effect {
  svf: StereoSvf = new StereoSvf();
  rate: Smoothed = new Smoothed();
  phase: f64 = 0.0;
  coef: f32 = 0.1;
  k: f32 = 1.0;    // SVF damping (1/Q)
  gain: f32 = 1.0; // output gain

  /** Cutoff in Hz at cycle phase ph in [0, 1); each effect gives its own shape. */
  cutoffHz(ph: f64): f64 {
    return 1000.0 + 0.0 * ph;
  }

  init(fs: f64): void {
    super.init(fs);
    this.coef = blockCoef(fs);
  }

  set(value: f32, e1: f32, e2: f32, e3: f32): void {
    super.set(value, e1, e2, e3);
    this.rate.target = Mathf.max(value, 0.0);
  }

  cutoffG(ph: f64): f32 {
    return svfG(this.cutoffHz(ph), this.fs);
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
    this.svf.lowpass(l, r, n, this.cutoffG(ph), this.k, this.gain);
  }
}
