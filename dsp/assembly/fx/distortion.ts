// Distortion: a soft clipper with drive set by `value` (0-100 %), level-compensated.
// Drive: the input, taken relative to the tone mix's nominal peak 0.15, is multiplied by
// G = 0.25 * 120^(value/100) (0.25 = nearly clean, 1.05 at the default 30, 30 at 100) and shaped
// by the cubic soft clip f(u) = 1.5u - 0.5u^3 (|u| <= 1), sign(u) beyond: smooth (C1) at the knee.
// Aliasing is reduced with first-order antiderivative anti-aliasing (Parker, Zavalishin & Le
// Bivic, "Reducing the aliasing of nonlinear waveshaping using continuous-time convolution",
// DAFx 2016): y = (F(u_n) - F(u_n-1)) / (u_n - u_n-1), F the antiderivative of f, in f64.
// Level compensation: the output is scaled so its power follows the input's (both measured per
// block and smoothed over ~50 ms, stereo-linked), so more drive means more grit, not more level.

import { Effect } from "./effect";
import { TONE_GAIN } from "../lib/constants";
import { blockCoef, Smoothed } from "../lib/smooth";

const LEVEL: f64 = <f64>TONE_GAIN;

// @ts-ignore: decorator
@inline
function clip(u: f64): f64 {
  const a = Math.min(Math.max(u, -1.0), 1.0);
  return 1.5 * a - 0.5 * a * a * a;
}

/** Antiderivative of clip(): 0.75u^2 - 0.125u^4 inside the knee, |u| - 0.375 outside. */
// @ts-ignore: decorator
@inline
function clipF(u: f64): f64 {
  const a = Math.abs(u);
  if (a >= 1.0) return a - 0.375;
  const s = u * u;
  return 0.75 * s - 0.125 * s * s;
}

class Shaper {
  u1: f64 = 0.0;  // previous drive-scaled input
  f1: f64 = 0.0;  // its antiderivative

  reset(): void {
    this.u1 = 0.0;
    this.f1 = 0.0;
  }

  /** Shapes n samples in place with the drive ramping g0 -> g1 (in 1/LEVEL units); returns the
   *  sums of squares of input and output (for the level compensation). */
  run(p: usize, n: i32, g0: f64, g1: f64, sums: StaticArray<f64>): void {
    const gs = (g1 - g0) / <f64>n;
    let g = g0;
    let u1 = this.u1, f1 = this.f1;
    let pin = 0.0, pout = 0.0;
    for (let i = 0; i < n; i++) {
      g += gs;
      const q = p + (<usize>i << 2);
      const x = <f64>load<f32>(q);
      const u = x * g;
      const f = clipF(u);
      const d = u - u1;
      const y = Math.abs(d) > 1e-7 ? (f - f1) / d : clip(0.5 * (u + u1));
      u1 = u;
      f1 = f;
      const out = y * LEVEL;
      pin += x * x;
      pout += out * out;
      store<f32>(q, <f32>out);
    }
    this.u1 = u1;
    this.f1 = f1;
    sums[0] += pin;
    sums[1] += pout;
  }
}

export class Distortion extends Effect {
  left: Shaper = new Shaper();
  right: Shaper = new Shaper();
  drive: Smoothed = new Smoothed();
  sums: StaticArray<f64> = new StaticArray<f64>(2);
  pin: f64 = 0.0;   // smoothed input power per sample
  pout: f64 = 0.0;  // smoothed output power per sample
  comp: f32 = 1.0;  // current make-up gain
  slow: f64 = 0.0;  // per-block coefficient of the ~50 ms power smoothing
  coef: f32 = 0.0;

  init(fs: f64): void {
    super.init(fs);
    this.coef = blockCoef(fs);
    this.slow = <f64>blockCoef(fs, 0.05);
  }

  set(value: f32, e1: f32, e2: f32, e3: f32): void {
    super.set(value, e1, e2, e3);
    const v = <f64>Mathf.min(Mathf.max(value, 0.0), 100.0);
    this.drive.target = <f32>(0.25 * Math.pow(120.0, v / 100.0));
  }

  reset(): void {
    this.left.reset();
    this.right.reset();
    this.drive.jump(this.drive.target);
    this.pin = 0.0;
    this.pout = 0.0;
    this.comp = -1.0; // unknown: the first block with sound sets it directly
  }

  process(l: usize, r: usize, n: i32): void {
    const g0 = <f64>this.drive.value / LEVEL;
    const g1 = <f64>this.drive.step(this.coef) / LEVEL;
    const sums = this.sums;
    sums[0] = 0.0;
    sums[1] = 0.0;
    // A mono block (the usual case: the channel mix is mono) is shaped once.
    const mono = memory.compare(l, r, <usize>n << 2) == 0 && this.left.u1 == this.right.u1;
    this.left.run(l, n, g0, g1, sums);
    if (mono) {
      memory.copy(r, l, <usize>n << 2);
      this.right.u1 = this.left.u1;
      this.right.f1 = this.left.f1;
      sums[0] *= 2.0;
      sums[1] *= 2.0;
    } else {
      this.right.run(r, n, g0, g1, sums);
    }
    const k = this.comp < 0.0 ? 1.0 : this.slow;
    this.pin += (sums[0] - this.pin) * k;
    this.pout += (sums[1] - this.pout) * k;
    if (this.pin < 1e-30) this.pin = 0.0;
    if (this.pout < 1e-30) this.pout = 0.0;
    // Make-up gain toward sqrt(Pin / Pout), held while silent, limited to +/-20 dB.
    let c1 = this.comp;
    if (this.pout > 1e-14) c1 = <f32>Math.min(Math.max(Math.sqrt(this.pin / this.pout), 0.1), 10.0);
    if (c1 < 0.0) return; // silent so far: nothing to scale
    const c0 = this.comp < 0.0 ? c1 : this.comp;
    this.comp = c1;
    const cs = (c1 - c0) / <f32>n;
    let c = c0;
    for (let i = 0; i < n; i++) {
      c += cs;
      const o = <usize>i << 2;
      store<f32>(l + o, load<f32>(l + o) * c);
      store<f32>(r + o, load<f32>(r + o) * c);
    }
  }
}
