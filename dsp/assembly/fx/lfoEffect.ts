// The shape shared by the effects that a slow periodic sweep drives at `value` cycles per second
// (phaser, flanger, 360° pan and the swept low-passes): the rate is smoothed per block, and the
// sweep's phase (f64, so it never drifts) advances by the block's mean rate. Subclasses call
// super.init/resetSweep and read the block's end phase from advance(n).

import { Effect } from "./effect";
import { Smoothed, blockCoef } from "../lib/smooth";

export class LfoEffect extends Effect {
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

  /** Jumps the rate to its target and the sweep back to phase 0 (part of every reset()). */
  resetSweep(): void {
    this.rate.jump(this.rate.target);
    this.phase = 0.0;
  }

  /** Moves the sweep over an n-frame block; returns its phase at the block's end, in [0, 1). */
  advance(n: i32): f64 {
    const r0 = <f64>this.rate.value;
    const r1 = <f64>this.rate.step(this.coef);
    let ph = this.phase + (r0 + r1) * 0.5 * <f64>n / this.fs;
    ph -= Math.floor(ph);
    this.phase = ph;
    return ph;
  }
}
