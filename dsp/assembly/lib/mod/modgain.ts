// Block kernels shared by the amplitude effects (tremolo, amplitudeMod, ringMod, isoPulses, gate):
// multiply both channels by a gain computed per sample from a u32 phase, the offset and depth
// ramping linearly across the block (their per-block smoothing lands there without steps).
// Both kernels run four samples per v128 step (n is a multiple of 4: the engine's block,
// lib/constants BLOCK, is 256).

import { opaque } from "../simd";
import { QUARTER, tableAt } from "./table";

// The loops' per-call constants pass through lib/simd opaque(): computed into plain locals, the
// compiler moved their (single-use) computation into the loop body and redid it every iteration,
// table reads included.

/**
 * l, r *= a + b * sin(2 pi p); a and b ramp from (a0, b0) to (a1, b1) over the n frames.
 * SIMD over four consecutive samples: the sine comes from a complex rotator (lanes = samples
 * i..i+3) started from the table at the block's exact phase and turned by 4 inc per step, so
 * the per-sample work is a handful of vector operations and no table reads. Over one 256-frame
 * block the f32 rotator stays within ~3e-6 (-110 dB) of the exact sine (simulated for rates up
 * to 40 Hz). n is a multiple of 4.
 */
export function modGainSine(
  l: usize, r: usize, n: i32, table: usize, p: u32, inc: u32, a0: f32, a1: f32, b0: f32, b1: f32,
): void {
  const inv: f32 = 1.0 / <f32>n;
  const da = (a1 - a0) * inv;
  const dbb = (b1 - b0) * inv;
  const p1 = p + inc, p2 = p1 + inc, p3 = p2 + inc;
  let sn = f32x4(tableAt(table, p), tableAt(table, p1), tableAt(table, p2), tableAt(table, p3));
  let cs = f32x4(tableAt(table, p + QUARTER), tableAt(table, p1 + QUARTER), tableAt(table, p2 + QUARTER), tableAt(table, p3 + QUARTER));
  const w = inc << 2;
  const rc = opaque(f32x4.splat(tableAt(table, w + QUARTER)));
  const rs = opaque(f32x4.splat(tableAt(table, w)));
  // Sample i uses a + (i + 1) da (the ramp ends exactly on a1, b1).
  const ramp = f32x4(1.0, 2.0, 3.0, 4.0);
  let a = f32x4.add(f32x4.splat(a0), f32x4.mul(ramp, f32x4.splat(da)));
  let b = f32x4.add(f32x4.splat(b0), f32x4.mul(ramp, f32x4.splat(dbb)));
  const stepA = opaque(f32x4.splat(4.0 * da));
  const stepB = opaque(f32x4.splat(4.0 * dbb));
  for (let i = 0; i < n; i += 4) {
    const g = f32x4.add(a, f32x4.mul(b, sn));
    const o = <usize>i << 2;
    v128.store(l + o, f32x4.mul(v128.load(l + o), g));
    v128.store(r + o, f32x4.mul(v128.load(r + o), g));
    const s2 = f32x4.add(f32x4.mul(sn, rc), f32x4.mul(cs, rs));
    cs = f32x4.sub(f32x4.mul(cs, rc), f32x4.mul(sn, rs));
    sn = s2;
    a = f32x4.add(a, stepA);
    b = f32x4.add(b, stepB);
  }
}

/** As modGainSine with a cosine (gain a + b at phase 0). */
// @ts-ignore: decorator
@inline
export function modGainCosine(
  l: usize, r: usize, n: i32, table: usize, p: u32, inc: u32, a0: f32, a1: f32, b0: f32, b1: f32,
): void {
  modGainSine(l, r, n, table, p + QUARTER, inc, a0, a1, b0, b1);
}

const INV_2_24: f32 = 1.0 / 16777216.0;

/**
 * On/off pulse envelope: on for the first half of each cycle, off for the second, each edge a
 * raised-cosine (sin^2) ramp lasting `edge` of a cycle (edge <= 0.25). The edges are centred so
 * the on-time between half-level points is exactly half the period.
 */
export function pulseGain(l: usize, r: usize, n: i32, table: usize, p: u32, inc: u32, edge: f32): void {
  const invW: f32 = 1.0 / edge;
  const half: f32 = 0.5 * edge;
  // Blocks entirely on a plateau need no per-sample work (the gain there is exactly 1 or 0).
  let x0 = <f64>p / 4294967296.0 + <f64>half;
  if (x0 >= 1.0) x0 -= 1.0;
  const x1 = x0 + <f64>inc * <f64>n / 4294967296.0;
  if (x0 >= <f64>edge && x1 <= 0.5) return;
  if (x0 >= 0.5 + <f64>edge && x1 <= 1.0) {
    memory.fill(l, 0, <usize>n << 2);
    memory.fill(r, 0, <usize>n << 2);
    return;
  }
  // Edge blocks: four samples per vector step. sin^2(pi t / 2) by an odd polynomial for
  // sin(x), x = pi t / 2 in [0, pi / 2] (Taylor to x^11: error below 6e-8), no table gathers.
  let ph = i32x4(p, p + inc, p + 2 * inc, p + 3 * inc);
  const step = opaque(i32x4.splat(inc << 2));
  const scale = opaque(f32x4.splat(INV_2_24));
  const shift = opaque(f32x4.splat(half));
  const one = opaque(f32x4.splat(1.0));
  const zero = opaque(f32x4.splat(0.0));
  const mid = opaque(f32x4.splat(0.5));
  const slope = opaque(f32x4.splat(invW));
  const halfPi = opaque(f32x4.splat(<f32>(Math.PI * 0.5)));
  const s3 = opaque(f32x4.splat(<f32>(-1.0 / 6.0)));
  const s5 = opaque(f32x4.splat(<f32>(1.0 / 120.0)));
  const s7 = opaque(f32x4.splat(<f32>(-1.0 / 5040.0)));
  const s9 = opaque(f32x4.splat(<f32>(1.0 / 362880.0)));
  const s11 = opaque(f32x4.splat(<f32>(-1.0 / 39916800.0)));
  for (let i = 0; i < n; i += 4) {
    // Cycle position shifted by half an edge, so the rise is centred on phase 0.
    // (ph >>> 8 < 2^24: the signed convert is exact, and one instruction where unsigned is many.)
    const x = f32x4.add(f32x4.mul(f32x4.convert_i32x4_s(i32x4.shr_u(ph, 8)), scale), shift);
    const pos = f32x4.sub(x, v128.and(one, f32x4.ge(x, one)));
    // pmin/pmax: one instruction each (the NaN-propagating min/max expand to several).
    const up = f32x4.pmin(f32x4.mul(pos, slope), one);
    const down = f32x4.pmin(f32x4.pmax(f32x4.mul(f32x4.sub(pos, mid), slope), zero), one);
    const t = f32x4.mul(f32x4.sub(up, down), halfPi); // 0..pi/2..0 over the cycle
    const t2 = f32x4.mul(t, t);
    let q = f32x4.add(s9, f32x4.mul(t2, s11));
    q = f32x4.add(s7, f32x4.mul(t2, q));
    q = f32x4.add(s5, f32x4.mul(t2, q));
    q = f32x4.add(s3, f32x4.mul(t2, q));
    const sn = f32x4.mul(t, f32x4.add(one, f32x4.mul(t2, q)));
    const g = f32x4.mul(sn, sn);
    ph = i32x4.add(ph, step);
    const o = <usize>i << 2;
    v128.store(l + o, f32x4.mul(v128.load(l + o), g));
    v128.store(r + o, f32x4.mul(v128.load(r + o), g));
  }
}
