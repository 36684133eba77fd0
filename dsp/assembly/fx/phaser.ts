// Phaser: eight first-order all-pass stages (spec 9) whose common break frequency a sine LFO at
// `value` Hz (0.1-10) sweeps exponentially from 250 Hz to 250 * 2^3.5 = 2.83 kHz; the output is
// (dry + all-passed) / 2. Eight stages turn the phase by up to 8 * 180 degrees, so four notches
// (where the phase reaches 180, 540, 900, 1260 degrees: fb tan(k pi / 16), k = 1, 3, 5, 7) move
// together with the sweep. Stage: H(z) = (a + z^-1) / (1 + a z^-1), a = (t - 1) / (t + 1),
// t = tan(pi fb / fs) (bilinear transform of a first-order all-pass). a ramps per frame.
//
// Speed: the sixteen channel-stages (8 stages x 2 ears) run as a skewed pipeline in four v128,
// vector v holding stages 2v+1 (lanes 0/1 = left/right) and 2v+2 (lanes 2/3). At step j stage k
// works on frame j - (k - 1), so every stage's input is what the stage before it produced one
// step earlier: one shuffle, and each step depends only on the previous step (a single stage's
// latency) instead of a chain through all eight stages per frame. The pipeline fills over the
// first 7 steps of a block and drains over 7 extra steps at its end (stages outside the block
// keep their state, lane masks), so between blocks all stages sit at the same frame and the
// output is not delayed. All stages of a step use that step's a (the ramp is within a few
// frames of each stage's own frame).

import { LfoEffect } from "./lfoEffect";
import { cos2pi, exp2, tanFast } from "../lib/math";

export const PHASER_LOW_HZ: f64 = 250.0;
export const PHASER_OCTAVES: f64 = 3.5;

export class Phaser extends LfoEffect {
  a: f32 = 0.0;
  // Pipeline state between blocks: y = each stage's last output, u = its last input
  // (vector v: stages 2v+1 in lanes 0/1, 2v+2 in lanes 2/3; left/right alternate).
  y0: v128 = f32x4.splat(0.0);
  y1: v128 = f32x4.splat(0.0);
  y2: v128 = f32x4.splat(0.0);
  y3: v128 = f32x4.splat(0.0);
  u0: v128 = f32x4.splat(0.0);
  u1: v128 = f32x4.splat(0.0);
  u2: v128 = f32x4.splat(0.0);
  u3: v128 = f32x4.splat(0.0);

  coefAt(ph: f64): f32 {
    const s = 0.5 - 0.5 * cos2pi(ph);
    const fb = PHASER_LOW_HZ * exp2(PHASER_OCTAVES * s);
    const t = tanFast(Math.PI * Math.min(fb, this.fs * 0.45) / this.fs);
    return <f32>((t - 1.0) / (t + 1.0));
  }

  reset(): void {
    this.resetSweep();
    this.a = this.coefAt(0.0);
    const z = f32x4.splat(0.0);
    this.y0 = z; this.y1 = z; this.y2 = z; this.y3 = z;
    this.u0 = z; this.u1 = z; this.u2 = z; this.u3 = z;
  }

  process(l: usize, r: usize, n: i32): void {
    const ph = this.advance(n);
    const a0 = this.a;
    const a1 = this.coefAt(ph);
    const da = (a1 - a0) / <f32>n;
    let y0 = this.y0, y1 = this.y1, y2 = this.y2, y3 = this.y3;
    let u0 = this.u0, u1 = this.u1, u2 = this.u2, u3 = this.u3;
    const zero = f32x4.splat(0.0);
    // Stage numbers per lane, for the fill / drain masks.
    const k0 = i32x4(1, 1, 2, 2), k1 = i32x4(3, 3, 4, 4), k2 = i32x4(5, 5, 6, 6), k3 = i32x4(7, 7, 8, 8);
    const last = n + 6;
    let j = 0;
    while (j <= last) {
      if (j == 7 && n > 7) {
        // Steady state: every stage inside the block, no masks.
        let a = a0 + da * <f32>7;
        const vd = f32x4.splat(da);
        let va = f32x4.splat(a + da);
        for (; j < n; j++) {
          const o = <usize>j << 2;
          const x = v128.load32_lane(r + o, v128.load32_zero(l + o), 1);
          const n0 = i32x4.shuffle(x, y0, 0, 1, 4, 5);
          const n1 = i32x4.shuffle(y0, y1, 2, 3, 4, 5);
          const n2 = i32x4.shuffle(y1, y2, 2, 3, 4, 5);
          const n3 = i32x4.shuffle(y2, y3, 2, 3, 4, 5);
          // y_k = a (u - y_k[prev]) + u[prev]
          y0 = f32x4.add(f32x4.mul(va, n0), f32x4.sub(u0, f32x4.mul(va, y0)));
          y1 = f32x4.add(f32x4.mul(va, n1), f32x4.sub(u1, f32x4.mul(va, y1)));
          y2 = f32x4.add(f32x4.mul(va, n2), f32x4.sub(u2, f32x4.mul(va, y2)));
          y3 = f32x4.add(f32x4.mul(va, n3), f32x4.sub(u3, f32x4.mul(va, y3)));
          u0 = n0; u1 = n1; u2 = n2; u3 = n3;
          va = f32x4.add(va, vd);
          // Stage 8 has finished frame j - 7.
          const p = <usize>(j - 7) << 2;
          store<f32>(l + p, 0.5 * (load<f32>(l + p) + f32x4.extract_lane(y3, 2)));
          store<f32>(r + p, 0.5 * (load<f32>(r + p) + f32x4.extract_lane(y3, 3)));
        }
        continue;
      }
      // Fill / drain step: stage k works on frame j - (k - 1) only when that lies in the block.
      const a = a0 + da * <f32>min(j + 1, n);
      const va = f32x4.splat(a);
      const hi = i32x4.splat(j + 1), lo = i32x4.splat(j - n + 2);
      const x = j < n ? v128.load32_lane(r + (<usize>j << 2), v128.load32_zero(l + (<usize>j << 2)), 1) : zero;
      const n0 = i32x4.shuffle(x, y0, 0, 1, 4, 5);
      const n1 = i32x4.shuffle(y0, y1, 2, 3, 4, 5);
      const n2 = i32x4.shuffle(y1, y2, 2, 3, 4, 5);
      const n3 = i32x4.shuffle(y2, y3, 2, 3, 4, 5);
      const m0 = v128.and(i32x4.le_s(k0, hi), i32x4.ge_s(k0, lo));
      const m1 = v128.and(i32x4.le_s(k1, hi), i32x4.ge_s(k1, lo));
      const m2 = v128.and(i32x4.le_s(k2, hi), i32x4.ge_s(k2, lo));
      const m3 = v128.and(i32x4.le_s(k3, hi), i32x4.ge_s(k3, lo));
      y0 = v128.bitselect(f32x4.add(f32x4.mul(va, f32x4.sub(n0, y0)), u0), y0, m0);
      y1 = v128.bitselect(f32x4.add(f32x4.mul(va, f32x4.sub(n1, y1)), u1), y1, m1);
      y2 = v128.bitselect(f32x4.add(f32x4.mul(va, f32x4.sub(n2, y2)), u2), y2, m2);
      y3 = v128.bitselect(f32x4.add(f32x4.mul(va, f32x4.sub(n3, y3)), u3), y3, m3);
      u0 = v128.bitselect(n0, u0, m0);
      u1 = v128.bitselect(n1, u1, m1);
      u2 = v128.bitselect(n2, u2, m2);
      u3 = v128.bitselect(n3, u3, m3);
      if (j >= 7) {
        const p = <usize>(j - 7) << 2;
        store<f32>(l + p, 0.5 * (load<f32>(l + p) + f32x4.extract_lane(y3, 2)));
        store<f32>(r + p, 0.5 * (load<f32>(r + p) + f32x4.extract_lane(y3, 3)));
      }
      j++;
    }
    this.a = a1;
    // All-pass states ring down with the input; flush them before they turn denormal.
    this.y0 = flush4(y0); this.y1 = flush4(y1); this.y2 = flush4(y2); this.y3 = flush4(y3);
    this.u0 = flush4(u0); this.u1 = flush4(u1); this.u2 = flush4(u2); this.u3 = flush4(u3);
  }
}

// @ts-ignore: decorator
@inline
function flush4(v: v128): v128 {
  const t = f32x4.splat(1e-18);
  return f32x4.sub(f32x4.add(v, t), t);
}
