// Frequency shifter: a true single-sideband shift of every partial by `value` Hz (-500..500).
// The analytic signal (re + j im) from the stereo Hilbert transformer (lib/mod/hilbert.ts) is
// multiplied by a quadrature oscillator e^(j 2 pi shift t) and the real part kept:
// out = re cos(theta) - im sin(theta). A partial at f moves to f + shift (a negative result
// reflects through 0 Hz); the mirror image at f - shift is suppressed by the transformer's
// phase accuracy (>= 55 dB). Fully wet. The shift is smoothed per block; the oscillator's phase
// is kept in f64 (restarting the per-sample rotator every block) and runs backwards for negative
// shifts, so sweeping through 0 Hz is seamless.

import { Effect } from "./effect";
import { blockCoef, Smoothed } from "../lib/smooth";
import { StereoHilbert } from "../lib/mod/hilbert";
import { sameSamples } from "../lib/simd";

export class FrequencyShifter extends Effect {
  hilbert: StereoHilbert = new StereoHilbert();
  shift: Smoothed = new Smoothed();
  phase: f64 = 0.0; // cycles, [0, 1)
  coef: f32 = 0.0;

  init(fs: f64): void {
    super.init(fs);
    this.coef = blockCoef(fs);
  }

  set(value: f32, e1: f32, e2: f32, e3: f32): void {
    super.set(value, e1, e2, e3);
    this.shift.target = Mathf.min(Mathf.max(value, -500.0), 500.0);
  }

  reset(): void {
    this.hilbert.reset();
    this.shift.jump(this.shift.target);
    this.phase = 0.0;
  }

  process(l: usize, r: usize, n: i32): void {
    const s0 = <f64>this.shift.value;
    const s1 = <f64>this.shift.step(this.coef);
    const cps = (s0 + s1) * 0.5 / this.fs; // negative shifts turn the oscillator backwards
    // A mono block (the usual case) with matching states is transformed once.
    const mono = sameSamples(l, r, n) && this.hilbert.same();
    this.hilbert.shift(l, r, n, this.phase, cps, mono);
    this.phase += cps * <f64>n;
    this.phase -= Math.floor(this.phase);
  }
}
