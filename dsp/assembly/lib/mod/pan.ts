// Equal-power panning shared by stereoPan and pan360, and a SIMD stereo gain ramp.
//
// Position p in [-1, 1] maps to the angle theta = (p + 1) pi / 4; the gains are
// sqrt(2) cos(theta) (left) and sqrt(2) sin(theta) (right), so gl^2 + gr^2 = 2 everywhere
// (equal power) and the centre leaves the signal unchanged. Each channel is scaled on its own
// (a balance law), so a stereo input such as binaural keeps its two ears apart.

import { cos2pi, sin2pi } from "../math";

const SQRT2: f64 = 1.4142135623730951;

/** Left gain for position p (-1 = hard left, 1 = hard right). */
export function panLeft(p: f64): f32 {
  return <f32>(SQRT2 * cos2pi((p + 1.0) * 0.125));
}

/** Right gain for position p. */
export function panRight(p: f64): f32 {
  return <f32>(SQRT2 * sin2pi((p + 1.0) * 0.125));
}

/** Multiplies the left block by a gain ramping linearly from gl0 to gl1 and the right by gr0 to
 *  gr1 (the value reached at the last frame). Four frames per v128 operation. */
export function stereoGainRamp(l: usize, r: usize, n: i32, gl0: f32, gl1: f32, gr0: f32, gr1: f32): void {
  const sl = (gl1 - gl0) / <f32>n;
  const sr = (gr1 - gr0) / <f32>n;
  let vl = f32x4(gl0 + sl, gl0 + 2.0 * sl, gl0 + 3.0 * sl, gl0 + 4.0 * sl);
  let vr = f32x4(gr0 + sr, gr0 + 2.0 * sr, gr0 + 3.0 * sr, gr0 + 4.0 * sr);
  const dl = f32x4.splat(4.0 * sl);
  const dr = f32x4.splat(4.0 * sr);
  const n4 = n & ~3;
  for (let i = 0; i < n4; i += 4) {
    const o = <usize>i << 2;
    v128.store(l + o, f32x4.mul(v128.load(l + o), vl));
    v128.store(r + o, f32x4.mul(v128.load(r + o), vr));
    vl = f32x4.add(vl, dl);
    vr = f32x4.add(vr, dr);
  }
  for (let i = n4; i < n; i++) {
    const o = <usize>i << 2;
    const t = <f32>(i + 1);
    store<f32>(l + o, load<f32>(l + o) * (gl0 + sl * t));
    store<f32>(r + o, load<f32>(r + o) * (gr0 + sr * t));
  }
}
