// Harmonic exciter: adds upper harmonics of the signal's high band, mixed in by `value` (0-100 %).
// The band above 600 Hz (2nd-order Butterworth high-pass) is normalised by its own peak envelope
// (instant attack, 100 ms release) to u in [-1, 1] and shaped by Chebyshev polynomials,
// T2(u) = 2u^2 - 1 and T3(u) = 4u^3 - 3u, which turn a sine of any level into exactly its 2nd
// and 3rd harmonic (no higher products, so no aliasing from the shaper). The result, scaled back
// by the envelope (so the harmonics track the band's level), passes a 1 kHz 2nd-order high-pass
// (removing the DC and low products) and is added to the dry signal:
// out = x + value/100 * 0.35 * hp(env * (0.5 T2(u) + 0.35 T3(u))). The dry path is untouched.

import { Effect } from "./effect";
import { Biquad, HIGHPASS } from "../lib/biquad";
import { BLOCK } from "../lib/constants";
import { blockCoef, Smoothed } from "../lib/smooth";

const BAND_HZ: f64 = 600.0;
const POST_HZ: f64 = 1000.0;
const RELEASE_S: f64 = 0.1;
const H2: f32 = 0.5;
const H3: f32 = 0.35;
const MIX: f32 = 0.35;

class ExciterChannel {
  pre: Biquad = new Biquad();
  post: Biquad = new Biquad();
  env: f32 = 0.0;

  reset(): void {
    this.pre.reset();
    this.post.reset();
    this.env = 0.0;
  }

  /** Adds the excitation of the n samples at p (in place), amount ramping a0 -> a1. */
  run(p: usize, n: i32, scratch: usize, release: f32, a0: f32, a1: f32): void {
    memory.copy(scratch, p, <usize>n << 2);
    this.pre.process(scratch, n);
    let env = this.env;
    for (let i = 0; i < n; i++) {
      const q = scratch + (<usize>i << 2);
      const b = load<f32>(q);
      const m = Mathf.abs(b);
      env = m > env ? m : env * release;
      const u = env > 1e-9 ? Mathf.min(Mathf.max(b / env, -1.0), 1.0) : <f32>0.0;
      const u2 = u * u;
      const h = H2 * (2.0 * u2 - 1.0) + H3 * u * (4.0 * u2 - 3.0);
      store<f32>(q, h * env);
    }
    this.env = env < 1e-20 ? 0.0 : env;
    this.post.process(scratch, n);
    const step = (a1 - a0) / <f32>n;
    let a = a0;
    for (let i = 0; i < n; i++) {
      a += step;
      const o = <usize>i << 2;
      store<f32>(p + o, load<f32>(p + o) + load<f32>(scratch + o) * a);
    }
  }
}

export class HarmonicExciter extends Effect {
  left: ExciterChannel = new ExciterChannel();
  right: ExciterChannel = new ExciterChannel();
  scratch: StaticArray<f32> = new StaticArray<f32>(BLOCK);
  amount: Smoothed = new Smoothed();
  release: f32 = 0.0;
  coef: f32 = 0.0;

  init(fs: f64): void {
    super.init(fs);
    this.coef = blockCoef(fs);
    this.release = <f32>Math.exp(-1.0 / (RELEASE_S * fs));
    const q = Math.SQRT1_2; // Butterworth
    this.left.pre.design(HIGHPASS, BAND_HZ, q, fs);
    this.right.pre.design(HIGHPASS, BAND_HZ, q, fs);
    this.left.post.design(HIGHPASS, POST_HZ, q, fs);
    this.right.post.design(HIGHPASS, POST_HZ, q, fs);
  }

  set(value: f32, e1: f32, e2: f32, e3: f32): void {
    super.set(value, e1, e2, e3);
    this.amount.target = Mathf.min(Mathf.max(value, 0.0), 100.0) * 0.01 * MIX;
  }

  reset(): void {
    this.left.reset();
    this.right.reset();
    this.amount.jump(this.amount.target);
  }

  process(l: usize, r: usize, n: i32): void {
    const a0 = this.amount.value;
    const a1 = this.amount.step(this.coef);
    if (a0 == 0.0 && a1 == 0.0) return;
    const s = changetype<usize>(this.scratch);
    // A mono block (the usual case) with matching states is processed once.
    const L = this.left, R = this.right;
    const mono = memory.compare(l, r, <usize>n << 2) == 0 && L.env == R.env &&
      L.pre.z1 == R.pre.z1 && L.pre.z2 == R.pre.z2 && L.post.z1 == R.post.z1 && L.post.z2 == R.post.z2;
    L.run(l, n, s, this.release, a0, a1);
    if (mono) {
      memory.copy(r, l, <usize>n << 2);
      R.env = L.env;
      R.pre.z1 = L.pre.z1; R.pre.z2 = L.pre.z2;
      R.post.z1 = L.post.z1; R.post.z2 = L.post.z2;
    } else {
      R.run(r, n, s, this.release, a0, a1);
    }
  }
}
