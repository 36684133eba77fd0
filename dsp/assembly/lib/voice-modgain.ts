// Block kernels shared by the amplitude effects (tremolo, amplitudeMod, ringMod, isoPulses, gate):
// multiply both channels by a gain computed per sample from a u32 phase, the offset and depth
// ramping linearly across the block (their per-block smoothing lands there without steps).

import { QUARTER, tableAt } from "./voice-osc";

/** l, r *= a + b * sin(2 pi p); a and b ramp from (a0, b0) to (a1, b1) over the n frames. */
export function modGainSine(
  l: usize, r: usize, n: i32, table: usize, p: u32, inc: u32, a0: f32, a1: f32, b0: f32, b1: f32,
): void {
  const inv: f32 = 1.0 / <f32>n;
  const da = (a1 - a0) * inv;
  const dbb = (b1 - b0) * inv;
  let a = a0, b = b0, ph = p;
  for (let i = 0; i < n; i++) {
    a += da;
    b += dbb;
    const g = a + b * tableAt(table, ph);
    ph += inc;
    const o = <usize>i << 2;
    store<f32>(l + o, load<f32>(l + o) * g);
    store<f32>(r + o, load<f32>(r + o) * g);
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
  let ph = p;
  for (let i = 0; i < n; i++) {
    // Cycle position shifted by half an edge, so the rise is centred on phase 0.
    const x = <f32>(ph >>> 8) * INV_2_24 + half;
    const pos = x >= 1.0 ? x - 1.0 : x;
    const up = Mathf.min(pos * invW, 1.0);
    const down = Mathf.min(Mathf.max((pos - 0.5) * invW, 0.0), 1.0);
    const t = up - down; // 0..1..0 over the cycle
    // sin^2(pi t / 2): a quarter sine cycle from the table.
    const s = tableAt(table, <u32>(t * 1073741824.0));
    const g = s * s;
    ph += inc;
    const o = <usize>i << 2;
    store<f32>(l + o, load<f32>(l + o) * g);
    store<f32>(r + o, load<f32>(r + o) * g);
  }
}
