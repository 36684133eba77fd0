// Filter Sweep: a low-pass that slowly sweeps up to `value` kHz (0.2-20) and back down: the
// cutoff is top * 2^(-5 (1 - s)), s a raised cosine with an 8 s period, so it rises over five
// octaves in 4 s (from top/32, at least 40 Hz) and falls again. It starts closed on reset.
// The sweep is slow enough (< 0.01 octave per block) for an RBJ biquad (lib/filter/biquad, Q 0.9)
// redesigned once per block, run four frames per step (lib/filter/biquad4; one design serves both
// channels, and a mono input is filtered once); the top cutoff itself is smoothed, so moving the
// slider glides.

import { Effect } from "./effect";
import { Biquad, LOWPASS } from "../lib/filter/biquad";
import { Smoothed, blockCoef } from "../lib/smooth";
import { Biquad4 } from "../lib/filter/biquad4";
import { sameSamples } from "../lib/simd";
import { cos2pi, exp2 } from "../lib/math";

export const SWEEP_PERIOD_S: f64 = 8.0;
export const SWEEP_OCTAVES: f64 = 5.0;
const SWEEP_Q: f64 = 0.9;

export class FilterSweep extends Effect {
  design: Biquad = new Biquad();
  left: Biquad4 = new Biquad4();
  right: Biquad4 = new Biquad4();
  top: Smoothed = new Smoothed();
  phase: f64 = 0.0;
  coef: f32 = 0.1;

  init(fs: f64): void {
    super.init(fs);
    this.coef = blockCoef(fs);
  }

  set(value: f32, e1: f32, e2: f32, e3: f32): void {
    super.set(value, e1, e2, e3);
    this.top.target = Mathf.min(Mathf.max(value, 0.05), 24.0) * 1000.0;
  }

  reset(): void {
    this.top.jump(this.top.target);
    this.phase = 0.0;
    this.left.reset();
    this.right.reset();
  }

  process(l: usize, r: usize, n: i32): void {
    const top = <f64>this.top.step(this.coef);
    let ph = this.phase + <f64>n / (SWEEP_PERIOD_S * this.fs);
    ph -= Math.floor(ph);
    this.phase = ph;
    const s = 0.5 - 0.5 * cos2pi(ph);
    const fc = Math.max(40.0, top * exp2(-SWEEP_OCTAVES * (1.0 - s)));
    const q = this.design;
    q.design(LOWPASS, fc, SWEEP_Q, this.fs);
    const a = this.left, b = this.right;
    a.setFrom(q);
    // A mono input with equal states: filter the left channel only and copy it (same bytes).
    if (a.sameState(b) && sameSamples(l, r, n)) {
      a.process(l, n);
      memory.copy(r, l, <usize>n << 2);
      b.copyState(a);
      return;
    }
    b.copyFrom(a);
    a.process(l, n);
    b.process(r, n);
  }
}
