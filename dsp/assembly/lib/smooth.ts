// Per-block one-pole smoothing with a snap to the target, used for every control value.
// Inside a block the value ramps linearly from start to end, so there are no zipper steps.

import { BLOCK, SMOOTH_SECONDS } from "./constants";

/** Coefficient that moves a one-pole 1 - e^(-BLOCK / (tau * fs)) of the way per block. */
export function blockCoef(fs: f64, seconds: f64 = SMOOTH_SECONDS): f32 {
  return <f32>(1.0 - Math.exp(-<f64>BLOCK / (seconds * fs)));
}

export class Smoothed {
  value: f32 = 0.0;
  target: f32 = 0.0;

  /** Returns the value at the end of this block and stores it. */
  @inline step(coef: f32): f32 {
    let v = this.value + (this.target - this.value) * coef;
    if (Mathf.abs(this.target - v) <= 1e-6 * Mathf.max(1.0, Mathf.abs(this.target))) v = this.target;
    this.value = v;
    return v;
  }

  jump(v: f32): void {
    this.value = v;
    this.target = v;
  }
}
