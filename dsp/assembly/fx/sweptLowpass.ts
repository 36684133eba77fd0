// A low-pass whose cutoff follows a periodic shape at `value` cycles per second: the shared base
// class (not a slot of its own) of the acid filter and the filter envelope, which differ only in
// the shape (cutoffHz), the damping k and the output gain. The rate is smoothed per block; the
// trapezoidal SVF (lib/filter/svf) takes the cutoff at the block's phase and updates it every 16
// frames.

import { LfoEffect } from "./lfoEffect";
import { StereoSvf, svfG } from "../lib/filter/svf";

export class SweptLowpass extends LfoEffect {
  svf: StereoSvf = new StereoSvf();
  k: f32 = 1.0;    // SVF damping (1/Q)
  gain: f32 = 1.0; // output gain

  /** Cutoff in Hz at cycle phase ph in [0, 1); each effect gives its own shape. */
  cutoffHz(ph: f64): f64 {
    return 1000.0 + 0.0 * ph;
  }

  cutoffG(ph: f64): f32 {
    return svfG(this.cutoffHz(ph), this.fs);
  }

  reset(): void {
    this.resetSweep();
    this.svf.reset(this.cutoffG(0.0));
  }

  process(l: usize, r: usize, n: i32): void {
    const ph = this.advance(n);
    this.svf.lowpass(l, r, n, this.cutoffG(ph), this.k, this.gain);
  }
}
