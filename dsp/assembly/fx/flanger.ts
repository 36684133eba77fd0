// Flanger: a short delay swept between 1 and 5 ms by a sine LFO at `value` Hz (0.1-10), with
// feedback 0.6 (spec 9) around the delay: w[n] = x[n] + 0.6 w[n - D], out = (x + w[n - D]) / 2.
// The response peaks at multiples of 1/D (x1.75) and dips halfway between (x0.19, -19 dB), and
// the comb slides as D moves. The LFO starts at the shortest delay on reset; the right channel's
// LFO runs a quarter cycle ahead for width. The delay is computed per block from the f64 phase
// and ramps per frame (fractional read, lib/delay/tap); four frames per f32x4 step.

import { LfoEffect } from "./lfoEffect";
import { DelayLine } from "../lib/delay/delayline";
import { cos2pi, ftz } from "../lib/math";
import { opaque } from "../lib/simd";
import { put4, tap, tap4 } from "../lib/delay/tap";

export const FLANGER_MIN_MS: f64 = 1.0;
export const FLANGER_MAX_MS: f64 = 5.0;
const FLANGER_FEEDBACK: f32 = 0.6;

export class Flanger extends LfoEffect {
  left!: DelayLine;
  right!: DelayLine;
  dl: f32 = 0.0; // current delays in frames
  dr: f32 = 0.0;

  init(fs: f64): void {
    super.init(fs);
    const frames = <i32>Math.ceil(FLANGER_MAX_MS * 0.001 * fs) + 4;
    this.left = new DelayLine(frames);
    this.right = new DelayLine(frames);
  }

  delayAt(ph: f64): f32 {
    const s = 0.5 - 0.5 * cos2pi(ph);
    return <f32>((FLANGER_MIN_MS + (FLANGER_MAX_MS - FLANGER_MIN_MS) * s) * 0.001 * this.fs);
  }

  reset(): void {
    this.resetSweep();
    this.dl = this.delayAt(0.0);
    this.dr = this.delayAt(0.25);
    this.left.reset();
    this.right.reset();
  }

  process(l: usize, r: usize, n: i32): void {
    const ph = this.advance(n);
    const dl1 = this.delayAt(ph);
    const dr1 = this.delayAt(ph + 0.25);
    const inv: f32 = 1.0 / <f32>n;
    const sl = (dl1 - this.dl) * inv;
    const sr = (dr1 - this.dr) * inv;
    const a = this.left, b = this.right;
    const ba = changetype<usize>(a.buf), bb = changetype<usize>(b.buf);
    const mask = a.mask;
    // Frame j is written at ring index w0 + j; it reads w[n - D] at position w0 + j - D (kept
    // positive by one ring length). D >= 1 ms > 4 frames, so four frames at a time read only
    // frames already written.
    const w0 = a.pos + 1;
    const base = <f32>(mask + 1) + <f32>(w0 & mask);
    const magic = opaque(f32x4.splat(8388608.0));
    const ramp = f32x4(1.0, 2.0, 3.0, 4.0);
    const lanes = opaque(f32x4(0.0, 1.0, 2.0, 3.0));
    const fb = opaque(f32x4.splat(FLANGER_FEEDBACK)), half = opaque(f32x4.splat(0.5)), tiny = opaque(f32x4.splat(1e-18));
    // Position of frame j: base + j - (d0 + (j + 1) s) = (base - d0 - s) + j (1 - s).
    let ql = f32x4.add(f32x4.splat(base - this.dl - sl), f32x4.mul(f32x4.sub(ramp, f32x4.splat(1.0)), f32x4.splat(1.0 - sl)));
    let qr = f32x4.add(f32x4.splat(base - this.dr - sr), f32x4.mul(f32x4.sub(ramp, f32x4.splat(1.0)), f32x4.splat(1.0 - sr)));
    const dql = f32x4.splat(4.0 * (1.0 - sl)), dqr = f32x4.splat(4.0 * (1.0 - sr));
    const n4 = n & ~3;
    for (let j = 0; j < n4; j += 4) {
      const o = <usize>j << 2;
      const xl = v128.load(l + o), xr = v128.load(r + o);
      const wl = tap4(ba, mask, lanes, magic, ql), wr = tap4(bb, mask, lanes, magic, qr);
      put4(ba, mask, w0 + j, f32x4.sub(f32x4.add(f32x4.add(xl, f32x4.mul(fb, wl)), tiny), tiny));
      put4(bb, mask, w0 + j, f32x4.sub(f32x4.add(f32x4.add(xr, f32x4.mul(fb, wr)), tiny), tiny));
      v128.store(l + o, f32x4.mul(half, f32x4.add(xl, wl)));
      v128.store(r + o, f32x4.mul(half, f32x4.add(xr, wr)));
      ql = f32x4.add(ql, dql);
      qr = f32x4.add(qr, dqr);
    }
    for (let j = n4; j < n; j++) {
      const o = <usize>j << 2;
      const t = <f32>j;
      const xl = load<f32>(l + o), xr = load<f32>(r + o);
      const wl = tap(ba, mask, base - this.dl - sl + t * (1.0 - sl));
      const wr = tap(bb, mask, base - this.dr - sr + t * (1.0 - sr));
      store<f32>(ba + (<usize>((w0 + j) & mask) << 2), ftz(xl + FLANGER_FEEDBACK * wl));
      store<f32>(bb + (<usize>((w0 + j) & mask) << 2), ftz(xr + FLANGER_FEEDBACK * wr));
      store<f32>(l + o, 0.5 * (xl + wl));
      store<f32>(r + o, 0.5 * (xr + wr));
    }
    a.commit(n);
    b.commit(n);
    this.dl = dl1;
    this.dr = dr1;
  }
}
