// Phaser: eight first-order all-pass stages (spec 9) whose common break frequency a sine LFO at
// `value` Hz (0.1-10) sweeps exponentially from 250 Hz to 250 * 2^3.5 = 2.83 kHz; the output is
// (dry + all-passed) / 2. Eight stages turn the phase by up to 8 * 180 degrees, so four notches
// (where the phase reaches 180, 540, 900, 1260 degrees: fb tan(k pi / 16), k = 1, 3, 5, 7) move
// together with the sweep. Stage: H(z) = (a + z^-1) / (1 + a z^-1), a = (t - 1) / (t + 1),
// t = tan(pi fb / fs) (bilinear transform of a first-order all-pass). a ramps per frame.
// The two channels run as two lanes of one v128, so each stage is one SIMD multiply-add.

import { Effect } from "./effect";
import { Smoothed, blockCoef } from "../lib/smooth";

export const PHASER_LOW_HZ: f64 = 250.0;
export const PHASER_OCTAVES: f64 = 3.5;

export class Phaser extends Effect {
  rate: Smoothed = new Smoothed();
  phase: f64 = 0.0;
  a: f32 = 0.0;
  coef: f32 = 0.1;
  // s[0] = previous input, s[k] = previous output of stage k; lanes 0/1 = left/right.
  s0: v128 = f32x4.splat(0.0);
  s1: v128 = f32x4.splat(0.0);
  s2: v128 = f32x4.splat(0.0);
  s3: v128 = f32x4.splat(0.0);
  s4: v128 = f32x4.splat(0.0);
  s5: v128 = f32x4.splat(0.0);
  s6: v128 = f32x4.splat(0.0);
  s7: v128 = f32x4.splat(0.0);
  s8: v128 = f32x4.splat(0.0);

  init(fs: f64): void {
    super.init(fs);
    this.coef = blockCoef(fs);
  }

  set(value: f32, e1: f32, e2: f32, e3: f32): void {
    super.set(value, e1, e2, e3);
    this.rate.target = Mathf.max(value, 0.0);
  }

  coefAt(ph: f64): f32 {
    const s = 0.5 - 0.5 * Math.cos(2.0 * Math.PI * ph);
    const fb = PHASER_LOW_HZ * Math.pow(2.0, PHASER_OCTAVES * s);
    const t = Math.tan(Math.PI * Math.min(fb, this.fs * 0.45) / this.fs);
    return <f32>((t - 1.0) / (t + 1.0));
  }

  reset(): void {
    this.rate.jump(this.rate.target);
    this.phase = 0.0;
    this.a = this.coefAt(0.0);
    const z = f32x4.splat(0.0);
    this.s0 = z; this.s1 = z; this.s2 = z; this.s3 = z; this.s4 = z;
    this.s5 = z; this.s6 = z; this.s7 = z; this.s8 = z;
  }

  process(l: usize, r: usize, n: i32): void {
    const r0 = <f64>this.rate.value;
    const r1 = <f64>this.rate.step(this.coef);
    let ph = this.phase + (r0 + r1) * 0.5 * <f64>n / this.fs;
    ph -= Math.floor(ph);
    this.phase = ph;
    const a1 = this.coefAt(ph);
    const da = (a1 - this.a) / <f32>n;
    let a = this.a;
    let s0 = this.s0, s1 = this.s1, s2 = this.s2, s3 = this.s3, s4 = this.s4;
    let s5 = this.s5, s6 = this.s6, s7 = this.s7, s8 = this.s8;
    const half = f32x4.splat(0.5);
    for (let i = 0; i < n; i++) {
      a += da;
      const va = f32x4.splat(a);
      const o = <usize>i << 2;
      const x = f32x4.replace_lane(f32x4.splat(load<f32>(l + o)), 1, load<f32>(r + o));
      // y_k = a (u - y_k[n-1]) + u[n-1], u = the previous stage's output.
      const y1 = f32x4.add(f32x4.mul(va, f32x4.sub(x, s1)), s0);
      const y2 = f32x4.add(f32x4.mul(va, f32x4.sub(y1, s2)), s1);
      const y3 = f32x4.add(f32x4.mul(va, f32x4.sub(y2, s3)), s2);
      const y4 = f32x4.add(f32x4.mul(va, f32x4.sub(y3, s4)), s3);
      const y5 = f32x4.add(f32x4.mul(va, f32x4.sub(y4, s5)), s4);
      const y6 = f32x4.add(f32x4.mul(va, f32x4.sub(y5, s6)), s5);
      const y7 = f32x4.add(f32x4.mul(va, f32x4.sub(y6, s7)), s6);
      const y8 = f32x4.add(f32x4.mul(va, f32x4.sub(y7, s8)), s7);
      s0 = x; s1 = y1; s2 = y2; s3 = y3; s4 = y4; s5 = y5; s6 = y6; s7 = y7; s8 = y8;
      const out = f32x4.mul(f32x4.add(x, y8), half);
      store<f32>(l + o, f32x4.extract_lane(out, 0));
      store<f32>(r + o, f32x4.extract_lane(out, 1));
    }
    this.a = a1;
    // All-pass states ring down with the input; flush them before they turn denormal.
    this.s0 = flush4(s0); this.s1 = flush4(s1); this.s2 = flush4(s2); this.s3 = flush4(s3);
    this.s4 = flush4(s4); this.s5 = flush4(s5); this.s6 = flush4(s6); this.s7 = flush4(s7);
    this.s8 = flush4(s8);
  }
}

// @ts-ignore: decorator
@inline
function flush4(v: v128): v128 {
  const t = f32x4.splat(1e-18);
  return f32x4.sub(f32x4.add(v, t), t);
}
