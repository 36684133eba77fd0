// Harmonic exciter: adds upper harmonics of the signal's high band, mixed in by `value` (0-100 %).
// The band above 600 Hz (2nd-order Butterworth high-pass) is normalised by its own peak envelope
// (instant attack, 100 ms release) to u in [-1, 1] and shaped by Chebyshev polynomials,
// T2(u) = 2u^2 - 1 and T3(u) = 4u^3 - 3u, which turn a sine of any level into exactly its 2nd
// and 3rd harmonic (no higher products, so no aliasing from the shaper). The result, scaled back
// by the envelope (so the harmonics track the band's level), passes a 1 kHz 2nd-order high-pass
// (removing the DC and low products) and is added to the dry signal:
// out = x + value/100 * 0.35 * hp(env * (0.5 T2(u) + 0.35 T3(u))). The dry path is untouched.
//
// SIMD: four consecutive samples per v128 step. Both high-passes run in block state-space form
// (lib/filter/biquad4.ts); the peak envelope env[n] = max(|b[n]|, env[n-1] r) is a decaying
// running maximum, computed for four samples by a two-step scan plus the carried value.

import { Effect } from "./effect";
import { HIGHPASS, Biquad } from "../lib/filter/biquad";
import { BQ4_BYTES, bq4, designBq4 } from "../lib/filter/biquad4";
import { sameSamples } from "../lib/simd";
import { blockCoef, Smoothed } from "../lib/smooth";

const BAND_HZ: f64 = 600.0;
const POST_HZ: f64 = 1000.0;
const RELEASE_S: f64 = 0.1;
const H2: f32 = 0.5;
const H3: f32 = 0.35;
const MIX: f32 = 0.35;
const STATE: i32 = 17; // pre x, pre y, post x, post y (v128 each), env

export class HarmonicExciter extends Effect {
  pre: StaticArray<f32> = new StaticArray<f32>(BQ4_BYTES >> 2);  // block-form columns
  post: StaticArray<f32> = new StaticArray<f32>(BQ4_BYTES >> 2);
  left: StaticArray<f32> = new StaticArray<f32>(STATE);
  right: StaticArray<f32> = new StaticArray<f32>(STATE);
  // Loop constants as vectors in memory (read inside the loop as memory operands; built as
  // locals, the compiler rematerialised them every iteration): r, r^2, [r, r^2, r^3, r^4], 1e-9,
  // 2 H2, H2, 4 H3, 3 H3, |x| mask, 1e-20; then the block's amount step (4 samples).
  consts: StaticArray<f32> = new StaticArray<f32>(11 * 4);
  amount: Smoothed = new Smoothed();
  release: f32 = 0.0;
  coef: f32 = 0.0;

  init(fs: f64): void {
    super.init(fs);
    this.coef = blockCoef(fs);
    this.release = <f32>Math.exp(-1.0 / (RELEASE_S * fs));
    const q = Math.SQRT1_2; // Butterworth
    const b = new Biquad(); // design only (init may allocate)
    b.design(HIGHPASS, BAND_HZ, q, fs);
    designBq4(changetype<usize>(this.pre), b.b0, b.b1, b.b2, b.a1, b.a2);
    b.design(HIGHPASS, POST_HZ, q, fs);
    designBq4(changetype<usize>(this.post), b.b0, b.b1, b.b2, b.a1, b.a2);
    const r = this.release;
    const k: StaticArray<f32> = [
      r, r, r, r, r * r, r * r, r * r, r * r, r, r * r, r * r * r, r * r * r * r,
      1e-9, 1e-9, 1e-9, 1e-9, 2.0 * H2, 2.0 * H2, 2.0 * H2, 2.0 * H2, H2, H2, H2, H2,
      4.0 * H3, 4.0 * H3, 4.0 * H3, 4.0 * H3, 3.0 * H3, 3.0 * H3, 3.0 * H3, 3.0 * H3,
      0, 0, 0, 0, 1e-20, 1e-20, 1e-20, 1e-20,
    ];
    memory.copy(changetype<usize>(this.consts), changetype<usize>(k), 40 << 2);
    for (let i = 0; i < 4; i++) store<u32>(changetype<usize>(this.consts) + 128 + (<usize>i << 2), 0x7fffffff);
  }

  set(value: f32, e1: f32, e2: f32, e3: f32): void {
    super.set(value, e1, e2, e3);
    this.amount.target = Mathf.min(Mathf.max(value, 0.0), 100.0) * 0.01 * MIX;
  }

  reset(): void {
    memory.fill(changetype<usize>(this.left), 0, <usize>STATE << 2);
    memory.fill(changetype<usize>(this.right), 0, <usize>STATE << 2);
    this.amount.jump(this.amount.target);
  }

  process(l: usize, r: usize, n: i32): void {
    const a0 = this.amount.value;
    const a1 = this.amount.step(this.coef);
    if (a0 == 0.0 && a1 == 0.0) return;
    const L = changetype<usize>(this.left), R = changetype<usize>(this.right);
    // A mono block (the usual case) with matching states is processed once.
    const mono = sameSamples(l, r, n) && memory.compare(L, R, <usize>STATE << 2) == 0;
    this.run(l, n, L, a0, a1);
    if (mono) {
      memory.copy(r, l, <usize>n << 2);
      memory.copy(R, L, <usize>STATE << 2);
    } else {
      this.run(r, n, R, a0, a1);
    }
  }

  /** Adds the excitation of the n samples at p (in place), amount ramping a0 -> a1; st is the
   *  channel's state. n is a multiple of 4 (the engine's block, BLOCK, is 256). */
  private run(p: usize, n: i32, st: usize, a0: f32, a1: f32): void {
    const C1 = changetype<usize>(this.pre), C2 = changetype<usize>(this.post);
    let px = v128.load(st), py = v128.load(st, 16), qx = v128.load(st, 32), qy = v128.load(st, 48);
    let env = f32x4.splat(load<f32>(st, 64));
    const K = changetype<usize>(this.consts);
    const zero = f32x4.splat(0.0);
    const step = (a1 - a0) / <f32>n;
    let a = f32x4.add(f32x4.splat(a0), f32x4.mul(f32x4(1.0, 2.0, 3.0, 4.0), f32x4.splat(step)));
    v128.store(K, f32x4.splat(4.0 * step), 160);
    for (let i = 0; i < n; i += 4) {
      const q = p + (<usize>i << 2);
      const x = v128.load(q);
      const b = bq4(x, px, py, C1);
      px = x; py = b;
      // Decaying running maximum of |b|: within the four lanes by a two-step scan, then the
      // carried envelope of the previous step, decayed by 1..4 samples.
      let m = v128.and(b, v128.load(K, 128));
      m = f32x4.pmax(m, f32x4.mul(v128.shuffle<f32>(zero, m, 0, 4, 5, 6), v128.load(K)));
      m = f32x4.pmax(m, f32x4.mul(v128.shuffle<f32>(zero, m, 0, 1, 4, 5), v128.load(K, 16)));
      env = f32x4.pmax(m, f32x4.mul(v128.shuffle<f32>(env, env, 3, 3, 3, 3), v128.load(K, 32)));
      // u = b / env (|u| <= 1 since env >= |b|; 0 while the envelope is below 1e-9).
      const tiny = v128.load(K, 48);
      const u = v128.and(f32x4.div(b, f32x4.pmax(env, tiny)), f32x4.gt(env, tiny));
      const u2 = f32x4.mul(u, u);
      // H2 T2(u) + H3 T3(u) = (2 H2 u^2 - H2) + u (4 H3 u^2 - 3 H3), scaled back by env.
      const h = f32x4.mul(env, f32x4.add(
        f32x4.sub(f32x4.mul(v128.load(K, 64), u2), v128.load(K, 80)),
        f32x4.mul(u, f32x4.sub(f32x4.mul(v128.load(K, 96), u2), v128.load(K, 112))),
      ));
      const y = bq4(h, qx, qy, C2);
      qx = h; qy = y;
      v128.store(q, f32x4.add(x, f32x4.mul(y, a)));
      a = f32x4.add(a, v128.load(K, 160));
    }
    // No denormal tails after silence.
    const fl = v128.load(K, 144);
    px = v128.and(px, f32x4.gt(f32x4.abs(px), fl)); py = v128.and(py, f32x4.gt(f32x4.abs(py), fl));
    qx = v128.and(qx, f32x4.gt(f32x4.abs(qx), fl)); qy = v128.and(qy, f32x4.gt(f32x4.abs(qy), fl));
    env = v128.and(env, f32x4.gt(env, fl));
    v128.store(st, px); v128.store(st, py, 16); v128.store(st, qx, 32); v128.store(st, qy, 48);
    store<f32>(st, f32x4.extract_lane(env, 3), 64);
  }
}
