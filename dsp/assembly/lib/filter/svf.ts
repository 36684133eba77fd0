// Stereo low-pass state-variable filter for swept filters (acidFilter, filterEnvelope).
// Topology-preserving trapezoidal SVF after Andrew Simper, "Linear Trapezoidal Integrated SVF"
// (Cytomic technical paper, 2013): stable for any cutoff and resonance, and it stays well-behaved
// when the cutoff moves quickly, which a direct-form biquad recomputed per block does not
// (an LFO at 20 Hz would step the cutoff by up to 1.5 octaves per 256-frame block, lib/constants
// BLOCK).
// The prewarped cutoff g = tan(pi fc / fs) ramps linearly across the block; the coefficients are
// updated at control rate (every SUB = 16 frames, from the mean g of those frames), once for
// both channels. At the fastest sweep (acidFilter, 20 Hz) that is a step of < 0.1 octave, and
// the SVF's integrator states carry across a step without a transient.
//
// Speed: with the coefficients fixed for a sub-block the SVF is a linear state-space system
//   s = (ic1, ic2),  s' = A s + B x,  y = C s + D x
//   A = [[2 a1 - 1, -2 a2], [2 a2, 1 - 2 a3]],  B = (2 a2, 2 a3),  C = (a2, 1 - a3),  D = a3
// (the paper's update written as a matrix), so four output frames are one f32x4 product and the
// state jumps four frames at once (block state-space filtering, as lib/filter/biquad4 does for a
// biquad's input/output history):
//   y[n+k] = C A^k s + D x[n+k] + sum_{m<k} C A^(k-1-m) B x[n+m],  s(n+4) = A^4 s + sum_m A^(3-m) B x[n+m].
// The loop-carried latency is then one multiply-add per four frames instead of a chain of six
// operations per frame. When both channels and both states are equal (a mono input), one
// channel is filtered and copied: the same bytes, half the work.

import { tanFast } from "../math";
import { sameSamples } from "../simd";

const SUB: i32 = 16;

export class StereoSvf {
  // Integrator states (ic1eq, ic2eq in the paper) for the left and right channel.
  l1: f32 = 0.0;
  l2: f32 = 0.0;
  r1: f32 = 0.0;
  r2: f32 = 0.0;
  /** Prewarped cutoff at the end of the last block. */
  g: f32 = 0.01;
  // Block coefficients for the current sub-block (see the header): lane k of p1/p2 = C A^k e1/e2,
  // lane k of hm = h[k - m] (h[0] = D, h[j] = C A^(j-1) B), q1/q2 = columns of A^4 (lanes 0/1),
  // rm = A^(3-m) B (lanes 0/1).
  p1: v128 = f32x4.splat(0.0);
  p2: v128 = f32x4.splat(0.0);
  h0: v128 = f32x4.splat(0.0);
  h1: v128 = f32x4.splat(0.0);
  h2: v128 = f32x4.splat(0.0);
  h3: v128 = f32x4.splat(0.0);
  q1: v128 = f32x4.splat(0.0);
  q2: v128 = f32x4.splat(0.0);
  r0: v128 = f32x4.splat(0.0);
  rr1: v128 = f32x4.splat(0.0);
  rr2: v128 = f32x4.splat(0.0);
  rr3: v128 = f32x4.splat(0.0);
  // Scalar A, B, C, D for a tail of fewer than four frames.
  a11: f32 = 0.0;
  a12: f32 = 0.0;
  a21: f32 = 0.0;
  a22: f32 = 0.0;
  b1: f32 = 0.0;
  b2: f32 = 0.0;
  c1: f32 = 0.0;
  c2: f32 = 0.0;
  d: f32 = 0.0;

  reset(g: f32): void {
    this.l1 = 0.0;
    this.l2 = 0.0;
    this.r1 = 0.0;
    this.r2 = 0.0;
    this.g = g;
  }

  /** Block coefficients for cutoff g, damping k, output gain out. */
  design(g: f32, k: f32, out: f32): void {
    const a1: f32 = 1.0 / (1.0 + g * (g + k));
    const a2 = g * a1;
    const a3 = g * a2;
    const m11: f32 = 2.0 * a1 - 1.0, m12: f32 = -2.0 * a2, m21: f32 = 2.0 * a2, m22: f32 = 1.0 - 2.0 * a3;
    const b1: f32 = 2.0 * a2, b2: f32 = 2.0 * a3;
    const c1: f32 = a2 * out, c2: f32 = (1.0 - a3) * out, d: f32 = a3 * out;
    this.a11 = m11; this.a12 = m12; this.a21 = m21; this.a22 = m22;
    this.b1 = b1; this.b2 = b2; this.c1 = c1; this.c2 = c2; this.d = d;
    // Rows C A^k (k = 1..3).
    const e1: f32 = c1 * m11 + c2 * m21, e2: f32 = c1 * m12 + c2 * m22;
    const f1: f32 = e1 * m11 + e2 * m21, f2: f32 = e1 * m12 + e2 * m22;
    const k1: f32 = f1 * m11 + f2 * m21, k2: f32 = f1 * m12 + f2 * m22;
    this.p1 = f32x4(c1, e1, f1, k1);
    this.p2 = f32x4(c2, e2, f2, k2);
    // Columns A^j B (j = 1..3).
    const u1: f32 = m11 * b1 + m12 * b2, u2: f32 = m21 * b1 + m22 * b2;
    const v1: f32 = m11 * u1 + m12 * u2, v2: f32 = m21 * u1 + m22 * u2;
    const w1: f32 = m11 * v1 + m12 * v2, w2: f32 = m21 * v1 + m22 * v2;
    const h1: f32 = c1 * b1 + c2 * b2, h2: f32 = c1 * u1 + c2 * u2, h3: f32 = c1 * v1 + c2 * v2;
    const hv = f32x4(d, h1, h2, h3), z = f32x4.splat(0.0);
    this.h0 = hv;
    this.h1 = i32x4.shuffle(z, hv, 0, 4, 5, 6);
    this.h2 = i32x4.shuffle(z, hv, 0, 0, 4, 5);
    this.h3 = i32x4.shuffle(z, hv, 0, 0, 0, 4);
    this.r0 = f32x4(w1, w2, 0.0, 0.0);
    this.rr1 = f32x4(v1, v2, 0.0, 0.0);
    this.rr2 = f32x4(u1, u2, 0.0, 0.0);
    this.rr3 = f32x4(b1, b2, 0.0, 0.0);
    // A^4 = (A^2)^2.
    const s11: f32 = m11 * m11 + m12 * m21, s12: f32 = m11 * m12 + m12 * m22;
    const s21: f32 = m21 * m11 + m22 * m21, s22: f32 = m21 * m12 + m22 * m22;
    this.q1 = f32x4(s11 * s11 + s12 * s21, s21 * s11 + s22 * s21, 0.0, 0.0);
    this.q2 = f32x4(s11 * s12 + s12 * s22, s21 * s12 + s22 * s22, 0.0, 0.0);
  }

  /** Low-passes the stereo block in place while g moves linearly from this.g to g1;
   *  k = 1 / Q (damping), out = output gain. */
  lowpass(l: usize, r: usize, n: i32, g1: f32, k: f32, out: f32): void {
    const g0 = this.g;
    const dg = (g1 - g0) / <f32>n;
    const mono = this.l1 == this.r1 && this.l2 == this.r2 && sameSamples(l, r, n);
    for (let j = 0; j < n; j += SUB) {
      const m = min(SUB, n - j);
      // Frame i of the old per-frame ramp had g0 + dg (i + 1); use the sub-block's mean.
      this.design(g0 + dg * (<f32>j + 0.5 * <f32>(m + 1)), k, out);
      const o = <usize>j << 2;
      this.run(l + o, m, true);
      if (!mono) this.run(r + o, m, false);
    }
    if (mono) {
      memory.copy(r, l, <usize>n << 2);
      this.r1 = this.l1;
      this.r2 = this.l2;
    }
    // Flush tiny states: no denormal stalls when the input falls silent.
    if (Mathf.abs(this.l1) < 1e-20) this.l1 = 0.0;
    if (Mathf.abs(this.l2) < 1e-20) this.l2 = 0.0;
    if (Mathf.abs(this.r1) < 1e-20) this.r1 = 0.0;
    if (Mathf.abs(this.r2) < 1e-20) this.r2 = 0.0;
    this.g = g1;
  }

  /** Filters p[0..m) in place with the current coefficients, left or right state. */
  @inline run(p: usize, m: i32, left: bool): void {
    let z1 = left ? this.l1 : this.r1;
    let z2 = left ? this.l2 : this.r2;
    const p1 = this.p1, p2 = this.p2, h0 = this.h0, h1 = this.h1, h2 = this.h2, h3 = this.h3;
    const q1 = this.q1, q2 = this.q2, r0 = this.r0, r1 = this.rr1, r2 = this.rr2, r3 = this.rr3;
    const m4 = m & ~3;
    for (let i = 0; i < m4; i += 4) {
      const o = <usize>i << 2;
      const x = v128.load(p + o);
      const x0 = i32x4.shuffle(x, x, 0, 0, 0, 0);
      const x1 = i32x4.shuffle(x, x, 1, 1, 1, 1);
      const x2 = i32x4.shuffle(x, x, 2, 2, 2, 2);
      const x3 = i32x4.shuffle(x, x, 3, 3, 3, 3);
      const s1 = f32x4.splat(z1), s2 = f32x4.splat(z2);
      const xin = f32x4.add(f32x4.add(f32x4.mul(x0, h0), f32x4.mul(x1, h1)), f32x4.add(f32x4.mul(x2, h2), f32x4.mul(x3, h3)));
      const xs = f32x4.add(f32x4.add(f32x4.mul(x0, r0), f32x4.mul(x1, r1)), f32x4.add(f32x4.mul(x2, r2), f32x4.mul(x3, r3)));
      v128.store(p + o, f32x4.add(f32x4.add(f32x4.mul(s1, p1), f32x4.mul(s2, p2)), xin));
      const s = f32x4.add(f32x4.add(f32x4.mul(s1, q1), f32x4.mul(s2, q2)), xs);
      z1 = f32x4.extract_lane(s, 0);
      z2 = f32x4.extract_lane(s, 1);
    }
    for (let i = m4; i < m; i++) {
      const q = p + (<usize>i << 2);
      const x = load<f32>(q);
      store<f32>(q, this.c1 * z1 + this.c2 * z2 + this.d * x);
      const t = this.a11 * z1 + this.a12 * z2 + this.b1 * x;
      z2 = this.a21 * z1 + this.a22 * z2 + this.b2 * x;
      z1 = t;
    }
    if (left) {
      this.l1 = z1;
      this.l2 = z2;
    } else {
      this.r1 = z1;
      this.r2 = z2;
    }
  }
}

/** Prewarped SVF cutoff for fc Hz at sample rate fs, clamped below Nyquist. */
export function svfG(fc: f64, fs: f64): f32 {
  const f = Math.min(Math.max(fc, 10.0), fs * 0.45);
  return <f32>tanFast(Math.PI * f / fs);
}
