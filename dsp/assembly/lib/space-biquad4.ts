// A biquad that computes four output frames per step (f32x4), for fixed or per-block
// coefficients. A scalar IIR is bound by its loop latency (multiply + two adds per frame, ~12
// cycles); written in state-space form the recursion can jump four frames at once:
//   state s = (z1, z2) of the transposed direct form II, y[n] = s1 + b0 x[n],
//   s' = A s + B x,  A = [[-a1, 1], [-a2, 0]],  B = (b1 - a1 b0, b2 - a2 b0)
//   y[n..n+3] = P1 s1 + P2 s2 + sum_m x[n+m] H_m,   s(n+4) = A^4 s + sum_m A^(3-m) B x[n+m]
// (block state-space filtering, e.g. Kuo & Lee; the same idea as parallel-in-time IIR).
// The result equals Biquad.tick() frame by frame up to f32 rounding. Coefficients come from a
// designed lib/filter/biquad Biquad (its design() is reused).

import { Biquad } from "./filter/biquad";
import { opaque } from "./simd";

// Scratch for setFrom (module-level: allocated once, never inside a block).
const C1 = new StaticArray<f64>(4);
const C2 = new StaticArray<f64>(4);
const BX = new StaticArray<f64>(4);
const BY = new StaticArray<f64>(4);

export class Biquad4 {
  // Output matrices: lane k of P1/P2 = C A^k e1/e2; lane k of Hm = h[k - m] (0 when k < m).
  p1: v128 = f32x4.splat(0.0);
  p2: v128 = f32x4.splat(0.0);
  h0: v128 = f32x4.splat(0.0);
  h1: v128 = f32x4.splat(0.0);
  h2: v128 = f32x4.splat(0.0);
  h3: v128 = f32x4.splat(0.0);
  // State update: lanes 0/1 = new z1/z2 contributions.
  q1: v128 = f32x4.splat(0.0);
  q2: v128 = f32x4.splat(0.0);
  r0: v128 = f32x4.splat(0.0);
  r1: v128 = f32x4.splat(0.0);
  r2: v128 = f32x4.splat(0.0);
  r3: v128 = f32x4.splat(0.0);
  z1: f32 = 0.0;
  z2: f32 = 0.0;
  // Scalar coefficients for a tail of fewer than four frames.
  b0: f32 = 1.0;
  b1: f32 = 0.0;
  b2: f32 = 0.0;
  a1: f32 = 0.0;
  a2: f32 = 0.0;

  reset(): void {
    this.z1 = 0.0;
    this.z2 = 0.0;
  }

  /** Takes the coefficients of a designed Biquad (matrices computed in f64, no allocation). */
  setFrom(q: Biquad): void {
    const b0 = <f64>q.b0, b1 = <f64>q.b1, b2 = <f64>q.b2, a1 = <f64>q.a1, a2 = <f64>q.a2;
    this.b0 = q.b0; this.b1 = q.b1; this.b2 = q.b2; this.a1 = q.a1; this.a2 = q.a2;
    // Walk A^k applied to e1, e2 and B for k = 0..3; A (x, y) = (-a1 x + y, -a2 x).
    let e1x = 1.0, e1y = 0.0, e2x = 0.0, e2y = 1.0, bx = b1 - a1 * b0, by = b2 - a2 * b0;
    for (let k = 0; k < 4; k++) {
      C1[k] = e1x;
      C2[k] = e2x;
      BX[k] = bx;
      BY[k] = by;
      let t = -a1 * e1x + e1y; e1y = -a2 * e1x; e1x = t;
      t = -a1 * e2x + e2y; e2y = -a2 * e2x; e2x = t;
      t = -a1 * bx + by; by = -a2 * bx; bx = t;
    }
    // Impulse response: h[0] = b0, h[k] = C A^(k-1) B = BX[k - 1].
    const h0 = <f32>b0, h1 = <f32>BX[0], h2 = <f32>BX[1], h3 = <f32>BX[2];
    this.p1 = f32x4(<f32>C1[0], <f32>C1[1], <f32>C1[2], <f32>C1[3]);
    this.p2 = f32x4(<f32>C2[0], <f32>C2[1], <f32>C2[2], <f32>C2[3]);
    this.h0 = f32x4(h0, h1, h2, h3);
    this.h1 = f32x4(0.0, h0, h1, h2);
    this.h2 = f32x4(0.0, 0.0, h0, h1);
    this.h3 = f32x4(0.0, 0.0, 0.0, h0);
    // After four steps (e1x, e1y), (e2x, e2y) are the columns of A^4.
    this.q1 = f32x4(<f32>e1x, <f32>e1y, 0.0, 0.0);
    this.q2 = f32x4(<f32>e2x, <f32>e2y, 0.0, 0.0);
    // s(n+4) gets A^(3-m) B x[n+m].
    this.r0 = f32x4(<f32>BX[3], <f32>BY[3], 0.0, 0.0);
    this.r1 = f32x4(<f32>BX[2], <f32>BY[2], 0.0, 0.0);
    this.r2 = f32x4(<f32>BX[1], <f32>BY[1], 0.0, 0.0);
    this.r3 = f32x4(<f32>BX[0], <f32>BY[0], 0.0, 0.0);
  }

  /** Takes another Biquad4's coefficients (not its state). */
  copyFrom(o: Biquad4): void {
    this.p1 = o.p1; this.p2 = o.p2;
    this.h0 = o.h0; this.h1 = o.h1; this.h2 = o.h2; this.h3 = o.h3;
    this.q1 = o.q1; this.q2 = o.q2;
    this.r0 = o.r0; this.r1 = o.r1; this.r2 = o.r2; this.r3 = o.r3;
    this.b0 = o.b0; this.b1 = o.b1; this.b2 = o.b2; this.a1 = o.a1; this.a2 = o.a2;
  }

  /** Filters p[0..n) in place (four frames per step, then a scalar tail). With `flush`, outputs
   *  below ~1e-25 become exactly 0 (lib/math ftz), for a filter inside a feedback loop. */
  process(p: usize, n: i32, flush: bool = false): void {
    const p1 = this.p1, p2 = this.p2, h0 = this.h0, h1 = this.h1, h2 = this.h2, h3 = this.h3;
    const q1 = this.q1, q2 = this.q2, r0 = this.r0, r1 = this.r1, r2 = this.r2, r3 = this.r3;
    let z1 = this.z1, z2 = this.z2;
    const tiny = opaque(f32x4.splat(1e-18));
    const n4 = n & ~3;
    for (let i = 0; i < n4; i += 4) {
      const o = <usize>i << 2;
      const x = v128.load(p + o);
      const x0 = f32x4.splat(f32x4.extract_lane(x, 0));
      const x1 = f32x4.splat(f32x4.extract_lane(x, 1));
      const x2 = f32x4.splat(f32x4.extract_lane(x, 2));
      const x3 = f32x4.splat(f32x4.extract_lane(x, 3));
      const s1 = f32x4.splat(z1), s2 = f32x4.splat(z2);
      const xin = f32x4.add(f32x4.add(f32x4.mul(x0, h0), f32x4.mul(x1, h1)), f32x4.add(f32x4.mul(x2, h2), f32x4.mul(x3, h3)));
      const xs = f32x4.add(f32x4.add(f32x4.mul(x0, r0), f32x4.mul(x1, r1)), f32x4.add(f32x4.mul(x2, r2), f32x4.mul(x3, r3)));
      let y = f32x4.add(f32x4.add(f32x4.mul(s1, p1), f32x4.mul(s2, p2)), xin);
      if (flush) y = f32x4.sub(f32x4.add(y, tiny), tiny);
      v128.store(p + o, y);
      const s = f32x4.add(f32x4.add(f32x4.mul(s1, q1), f32x4.mul(s2, q2)), xs);
      z1 = f32x4.extract_lane(s, 0);
      z2 = f32x4.extract_lane(s, 1);
    }
    for (let i = n4; i < n; i++) {
      const q = p + (<usize>i << 2);
      const x = load<f32>(q);
      const y = this.b0 * x + z1;
      z1 = this.b1 * x - this.a1 * y + z2;
      z2 = this.b2 * x - this.a2 * y;
      store<f32>(q, flush ? (y + 1e-18) - 1e-18 : y);
    }
    // Flush tiny states: no denormal stalls when the input falls silent.
    if (Mathf.abs(z1) < 1e-20) z1 = 0.0;
    if (Mathf.abs(z2) < 1e-20) z2 = 0.0;
    this.z1 = z1;
    this.z2 = z2;
  }
}
