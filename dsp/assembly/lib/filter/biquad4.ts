// The engine's 4-lane biquad: four frames per f32x4 step, for fixed or per-block coefficients.
// The direct-form-I recursion y[n] = b0 x[n] + b1 x[n-1] + b2 x[n-2] - a1 y[n-1] - a2 y[n-2] is
// linear in (x[0..3], x[-1], x[-2], y[-1], y[-2]), so the next four outputs are a sum of eight
// coefficient columns, each times one of those values broadcast across the lanes (block
// state-space filtering, e.g. Kuo & Lee; the same idea as parallel-in-time IIR). The columns are
// the filter's exact response to each input (computed in f64 at design time), so the output is
// the same filter as the per-sample form, to f32 rounding. The loop-carried path is a single
// broadcast, multiply and add per four frames instead of a multiply and two adds per frame,
// which is what made per-sample biquads latency-bound. The state is the input and output
// history itself, so coefficients may change between blocks without a state transform.
//
// Two ways in: the Biquad4 class (coefficients from a designed lib/filter/biquad Biquad, state,
// process() on a block in place), or designBq4() + bq4() inside a caller's own fused SIMD loop.
// n is a multiple of 4 everywhere (the engine's block, BLOCK, is 256).

import { Biquad } from "./biquad";
import { opaque } from "../simd";

/** Bytes of one coefficient set: eight v128 columns. */
export const BQ4_BYTES: i32 = 8 * 16;

/** Writes the eight columns for normalised coefficients (a0 = 1) to `c` (BQ4_BYTES). */
export function designBq4(c: usize, b0: f64, b1: f64, b2: f64, a1: f64, a2: f64): void {
  // Column j: the outputs y[0..3] when input j is 1 and every other input is 0. Inputs 0..3 are
  // x[0..3], then x[-1], x[-2], y[-2], y[-1].
  for (let j = 0; j < 8; j++) {
    let xm2 = j == 5 ? 1.0 : 0.0, xm1 = j == 4 ? 1.0 : 0.0;
    let ym2 = j == 6 ? 1.0 : 0.0, ym1 = j == 7 ? 1.0 : 0.0;
    for (let k = 0; k < 4; k++) {
      const x = j == k ? 1.0 : 0.0;
      const y = b0 * x + b1 * xm1 + b2 * xm2 - a1 * ym1 - a2 * ym2;
      store<f32>(c + (<usize>j << 4) + (<usize>k << 2), <f32>y);
      xm2 = xm1; xm1 = x;
      ym2 = ym1; ym1 = y;
    }
  }
}

/** Four outputs for the four inputs x, given the previous input and output vectors xp, yp
 *  (their lanes 2 and 3 are x[-2], x[-1] and y[-2], y[-1]). */
// @ts-ignore: decorator
@inline
export function bq4(x: v128, xp: v128, yp: v128, c: usize): v128 {
  const t0 = f32x4.add(
    f32x4.mul(v128.load(c), v128.shuffle<f32>(x, x, 0, 0, 0, 0)),
    f32x4.mul(v128.load(c, 16), v128.shuffle<f32>(x, x, 1, 1, 1, 1)),
  );
  const t1 = f32x4.add(
    f32x4.mul(v128.load(c, 32), v128.shuffle<f32>(x, x, 2, 2, 2, 2)),
    f32x4.mul(v128.load(c, 48), v128.shuffle<f32>(x, x, 3, 3, 3, 3)),
  );
  const t2 = f32x4.add(
    f32x4.mul(v128.load(c, 64), v128.shuffle<f32>(xp, xp, 3, 3, 3, 3)),
    f32x4.mul(v128.load(c, 80), v128.shuffle<f32>(xp, xp, 2, 2, 2, 2)),
  );
  const t = f32x4.add(f32x4.add(t0, t1), f32x4.add(t2, f32x4.mul(v128.load(c, 96), v128.shuffle<f32>(yp, yp, 2, 2, 2, 2))));
  return f32x4.add(t, f32x4.mul(v128.load(c, 112), v128.shuffle<f32>(yp, yp, 3, 3, 3, 3)));
}

/** A biquad with its coefficient columns and its history, filtering whole blocks in place. */
export class Biquad4 {
  coef: StaticArray<f32> = new StaticArray<f32>(BQ4_BYTES >> 2);
  xp: v128 = f32x4.splat(0.0); // the last four inputs (lanes 2, 3: x[-2], x[-1])
  yp: v128 = f32x4.splat(0.0); // the last four outputs

  reset(): void {
    this.xp = f32x4.splat(0.0);
    this.yp = f32x4.splat(0.0);
  }

  /** Takes the coefficients of a designed Biquad (columns computed in f64, no allocation). */
  setFrom(q: Biquad): void {
    designBq4(changetype<usize>(this.coef), q.b0, q.b1, q.b2, q.a1, q.a2);
  }

  /** Takes another Biquad4's coefficients (not its history). */
  copyFrom(o: Biquad4): void {
    memory.copy(changetype<usize>(this.coef), changetype<usize>(o.coef), <usize>BQ4_BYTES);
  }

  /** Takes another Biquad4's history (not its coefficients). */
  copyState(o: Biquad4): void {
    this.xp = o.xp;
    this.yp = o.yp;
  }

  /** True when both histories are bit-identical (equal input blocks then give equal outputs). */
  sameState(o: Biquad4): bool {
    return i32x4.all_true(i32x4.eq(this.xp, o.xp)) && i32x4.all_true(i32x4.eq(this.yp, o.yp));
  }

  /** Filters p[0..n) in place, n a multiple of 4. With `flush`, outputs below ~1e-25 become
   *  exactly 0 (lib/math ftz), for a filter inside a feedback loop. */
  process(p: usize, n: i32, flush: bool = false): void {
    const c = changetype<usize>(this.coef);
    let xp = this.xp, yp = this.yp;
    const tiny = opaque(f32x4.splat(1e-18));
    for (let i = 0; i < n; i += 4) {
      const q = p + (<usize>i << 2);
      const x = v128.load(q);
      let y = bq4(x, xp, yp, c);
      if (flush) y = f32x4.sub(f32x4.add(y, tiny), tiny);
      v128.store(q, y);
      xp = x;
      yp = y;
    }
    // Flush denormal-range history: no denormal stalls when the input falls silent.
    const fl = f32x4.splat(1e-20);
    this.xp = v128.and(xp, f32x4.gt(f32x4.abs(xp), fl));
    this.yp = v128.and(yp, f32x4.gt(f32x4.abs(yp), fl));
  }
}
