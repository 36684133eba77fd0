// Comb Filter: a feedback comb y[n] = x[n] + 0.7 y[n - D] with D = `value` ms (0.1-20), peaks at
// multiples of 1/D and notches halfway between (spec 9: feedback 0.7). The output is scaled by
// sqrt(1 - 0.7^2) so a broadband input keeps its power (peaks +7.5 dB, notches -7.5 dB).
// D is smoothed per block and ramps per frame (fractional, linearly interpolated read,
// lib/delay/tap); four frames per f32x4 step.

import { Effect } from "./effect";
import { DelayLine } from "../lib/delay/delayline";
import { Smoothed, blockCoef } from "../lib/smooth";
import { ftz } from "../lib/math";
import { opaque } from "../lib/simd";
import { put4, tap, tap4 } from "../lib/delay/tap";

const COMB_FEEDBACK: f32 = 0.7;
const COMB_GAIN: f32 = 0.714142842854285; // sqrt(1 - 0.49)
const MAX_MS: f64 = 25.0;

export class CombFilter extends Effect {
  left!: DelayLine;
  right!: DelayLine;
  delay: Smoothed = new Smoothed(); // frames
  coef: f32 = 0.1;

  init(fs: f64): void {
    super.init(fs);
    this.coef = blockCoef(fs);
    const frames = <i32>Math.ceil(MAX_MS * 0.001 * fs) + 4;
    this.left = new DelayLine(frames);
    this.right = new DelayLine(frames);
  }

  set(value: f32, e1: f32, e2: f32, e3: f32): void {
    super.set(value, e1, e2, e3);
    const ms = Mathf.min(Mathf.max(value, 0.05), <f32>MAX_MS - 1.0);
    // At least 4.5 frames (0.1 ms is 4.8 at 48 kHz): four frames are computed per step.
    this.delay.target = Mathf.max(<f32>(<f64>ms * 0.001 * this.fs), 4.5);
  }

  reset(): void {
    this.delay.jump(this.delay.target);
    this.left.reset();
    this.right.reset();
  }

  process(l: usize, r: usize, n: i32): void {
    const d0 = this.delay.value;
    const d1 = this.delay.step(this.coef);
    const s = (d1 - d0) / <f32>n;
    const a = this.left, b = this.right;
    const ba = changetype<usize>(a.buf), bb = changetype<usize>(b.buf);
    const mask = a.mask;
    // Frame j is written at ring index w0 + j and reads y[n - D] at w0 + j - D (plus one ring
    // length to stay positive). D > 4.5 frames, so four frames at a time read only frames
    // already written; both lines move together, so one position serves both.
    const w0 = a.pos + 1;
    const base = <f32>(mask + 1) + <f32>(w0 & mask);
    const magic = opaque(f32x4.splat(8388608.0));
    const lanes = opaque(f32x4(0.0, 1.0, 2.0, 3.0));
    const fb = opaque(f32x4.splat(COMB_FEEDBACK)), gain = opaque(f32x4.splat(COMB_GAIN)), tiny = opaque(f32x4.splat(1e-18));
    // Position of frame j: base + j - (d0 + (j + 1) s).
    let q = f32x4.add(f32x4.splat(base - d0 - s), f32x4.mul(f32x4(0.0, 1.0, 2.0, 3.0), f32x4.splat(1.0 - s)));
    const dq = f32x4.splat(4.0 * (1.0 - s));
    const n4 = n & ~3;
    for (let j = 0; j < n4; j += 4) {
      const o = <usize>j << 2;
      const yl = f32x4.sub(f32x4.add(f32x4.add(v128.load(l + o), f32x4.mul(fb, tap4(ba, mask, lanes, magic, q))), tiny), tiny);
      const yr = f32x4.sub(f32x4.add(f32x4.add(v128.load(r + o), f32x4.mul(fb, tap4(bb, mask, lanes, magic, q))), tiny), tiny);
      put4(ba, mask, w0 + j, yl);
      put4(bb, mask, w0 + j, yr);
      v128.store(l + o, f32x4.mul(yl, gain));
      v128.store(r + o, f32x4.mul(yr, gain));
      q = f32x4.add(q, dq);
    }
    for (let j = n4; j < n; j++) {
      const o = <usize>j << 2;
      const p = base - d0 - s + <f32>j * (1.0 - s);
      const yl = ftz(load<f32>(l + o) + COMB_FEEDBACK * tap(ba, mask, p));
      const yr = ftz(load<f32>(r + o) + COMB_FEEDBACK * tap(bb, mask, p));
      store<f32>(ba + (<usize>((w0 + j) & mask) << 2), yl);
      store<f32>(bb + (<usize>((w0 + j) & mask) << 2), yr);
      store<f32>(l + o, yl * COMB_GAIN);
      store<f32>(r + o, yr * COMB_GAIN);
    }
    a.commit(n);
    b.commit(n);
  }
}
