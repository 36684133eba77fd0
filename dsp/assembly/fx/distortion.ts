// Distortion: a soft clipper with drive set by `value` (0-100 %), level-compensated.
// Drive: the input, taken relative to the tone mix's nominal peak 0.15, is multiplied by
// G = 0.25 * 120^(value/100) (0.25 = nearly clean, 1.05 at the default 30, 30 at 100) and shaped
// by the cubic soft clip f(u) = 1.5u - 0.5u^3 (|u| <= 1), sign(u) beyond: smooth (C1) at the knee.
// Aliasing is reduced with first-order antiderivative anti-aliasing (Parker, Zavalishin & Le
// Bivic, "Reducing the aliasing of nonlinear waveshaping using continuous-time convolution",
// DAFx 2016): y = (F(u_n) - F(u_n-1)) / (u_n - u_n-1), F the antiderivative of f, in a form that
// keeps full precision in f32 (see Shaper.run), four samples per v128 step.
// Level compensation: the output is scaled so its power follows the input's (both measured per
// block and smoothed over ~50 ms, stereo-linked), so more drive means more grit, not more level.

import { Effect } from "./effect";
import { TONE_GAIN } from "../lib/constants";
import { blockCoef, Smoothed } from "../lib/smooth";
import { sameSamples } from "../lib/simd";

const LEVEL: f64 = <f64>TONE_GAIN;

const THRESHOLD: f32 = 1e-6; // |u - u1| below this: the midpoint value (error < 1e-12)

class Shaper {
  u1: f32 = 0.0;  // previous drive-scaled input
  consts: StaticArray<f32> = new StaticArray<f32>(9 * 4);

  constructor() {
    const k: StaticArray<f32> = [-1.0, 1.0, 0.75, 0.125, 1.5, 0.5, THRESHOLD, <f32>LEVEL];
    for (let j = 0; j < 8; j++) for (let lane = 0; lane < 4; lane++) this.consts[j * 4 + lane] = k[j];
  }

  reset(): void {
    this.u1 = 0.0;
  }

  /**
   * Shapes n samples in place with the drive ramping g0 -> g1 (in 1/LEVEL units); adds the sums
   * of squares of input and output to sums (for the level compensation). Four samples per v128
   * step, in f32 without loss: with a = clamp(u) and F(u) = F(a) + |u - a|,
   *   F(u) - F(u1) = (a - a1)(a + a1)(0.75 - 0.125 (a^2 + a1^2)) + |u - a| - |u1 - a1|,
   * every term well conditioned (inside the knee a - a1 is exactly u - u1; on one side beyond
   * it the excess difference is exactly sign(a) (u - u1)), so the quotient needs no f64.
   * n is a multiple of 4 (the engine's block, BLOCK, is 256).
   */
  run(p: usize, n: i32, g0: f32, g1: f32, sums: StaticArray<f64>): void {
    const gs = (g1 - g0) / <f32>n;
    let g = f32x4.add(f32x4.splat(g0), f32x4.mul(f32x4(1.0, 2.0, 3.0, 4.0), f32x4.splat(gs)));
    // Loop constants live in memory and are read where used (as locals the compiler rebuilt
    // them every iteration): -1, 1, 0.75, 0.125, 1.5, 0.5, threshold, LEVEL, drive step.
    const K = changetype<usize>(this.consts);
    v128.store(K, f32x4.splat(4.0 * gs), 128);
    const one = v128.load(K, 16), mone = v128.load(K);
    let up = f32x4.splat(this.u1);
    let ap = f32x4.pmin(f32x4.pmax(up, mone), one);
    let pin = f32x4.splat(0.0), pout = f32x4.splat(0.0);
    for (let i = 0; i < n; i += 4) {
      const q = p + (<usize>i << 2);
      const x = v128.load(q);
      const u = f32x4.mul(x, g);
      g = f32x4.add(g, v128.load(K, 128));
      const a = f32x4.pmin(f32x4.pmax(u, v128.load(K)), v128.load(K, 16));
      const u1 = v128.shuffle<f32>(up, u, 3, 4, 5, 6);
      const a1 = v128.shuffle<f32>(ap, a, 3, 4, 5, 6);
      up = u; ap = a;
      const d = f32x4.sub(u, u1);
      const sq = f32x4.add(f32x4.mul(a, a), f32x4.mul(a1, a1));
      const P = f32x4.mul(f32x4.add(a, a1), f32x4.sub(v128.load(K, 32), f32x4.mul(v128.load(K, 48), sq)));
      let y = P; // inside the knee on both sides the quotient is exactly P (also for u == u1)
      if (v128.any_true(v128.or(f32x4.ne(a, u), f32x4.ne(a1, u1)))) {
        const exc = v128.bitselect(
          f32x4.mul(a, d),
          f32x4.sub(f32x4.abs(f32x4.sub(u, a)), f32x4.abs(f32x4.sub(u1, a1))),
          f32x4.eq(a, a1),
        );
        const yq = f32x4.div(f32x4.add(f32x4.mul(P, f32x4.sub(a, a1)), exc), d);
        // Equal inputs: the shaper at the midpoint (the limit of the quotient).
        const m = f32x4.pmin(f32x4.pmax(f32x4.mul(v128.load(K, 80), f32x4.add(u, u1)), v128.load(K)), v128.load(K, 16));
        const ym = f32x4.mul(m, f32x4.sub(v128.load(K, 64), f32x4.mul(v128.load(K, 80), f32x4.mul(m, m))));
        y = v128.bitselect(ym, yq, f32x4.lt(f32x4.abs(d), v128.load(K, 96)));
      }
      const out = f32x4.mul(y, v128.load(K, 112));
      pin = f32x4.add(pin, f32x4.mul(x, x));
      pout = f32x4.add(pout, f32x4.mul(out, out));
      v128.store(q, out);
    }
    this.u1 = f32x4.extract_lane(up, 3);
    sums[0] += <f64>(f32x4.extract_lane(pin, 0) + f32x4.extract_lane(pin, 1) + f32x4.extract_lane(pin, 2) + f32x4.extract_lane(pin, 3));
    sums[1] += <f64>(f32x4.extract_lane(pout, 0) + f32x4.extract_lane(pout, 1) + f32x4.extract_lane(pout, 2) + f32x4.extract_lane(pout, 3));
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
    const g0 = <f32>(<f64>this.drive.value / LEVEL);
    const g1 = <f32>(<f64>this.drive.step(this.coef) / LEVEL);
    const sums = this.sums;
    sums[0] = 0.0;
    sums[1] = 0.0;
    // A mono block (the usual case: the channel mix is mono) is shaped once.
    const mono = sameSamples(l, r, n) && this.left.u1 == this.right.u1;
    this.left.run(l, n, g0, g1, sums);
    if (mono) {
      this.right.u1 = this.left.u1;
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
    if (c1 < 0.0) { // silent so far: nothing to scale
      if (mono) memory.copy(r, l, <usize>n << 2);
      return;
    }
    const c0 = this.comp < 0.0 ? c1 : this.comp;
    this.comp = c1;
    const cs = (c1 - c0) / <f32>n;
    let c = f32x4.add(f32x4.splat(c0), f32x4.mul(f32x4(1.0, 2.0, 3.0, 4.0), f32x4.splat(cs)));
    const c4 = f32x4.splat(4.0 * cs);
    if (mono) {
      for (let i = 0; i < n; i += 4) {
        const o = <usize>i << 2;
        const v = f32x4.mul(v128.load(l + o), c);
        v128.store(l + o, v);
        v128.store(r + o, v);
        c = f32x4.add(c, c4);
      }
    } else {
      for (let i = 0; i < n; i += 4) {
        const o = <usize>i << 2;
        v128.store(l + o, f32x4.mul(v128.load(l + o), c));
        v128.store(r + o, f32x4.mul(v128.load(r + o), c));
        c = f32x4.add(c, c4);
      }
    }
  }
}
