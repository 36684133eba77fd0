// Ping Pong Delay: the left echo comes after d = `value` s (0.05-2), the right after 1.5 d
// (spec 9), and each side feeds the other (cross feedback e1 = feedback 0-0.9), so later echoes
// alternate sides: left at d, 2.5 d, 4 d ...; right at 1.5 d, 2.5 d, 4 d ... each e1 times
// softer per crossing. e2 = mix: out = (1 - mix) dry + mix echoes. The loop gain per round trip
// is e1^2 <= 0.81, so the output stays bounded.
//
// Delays are whole frames (no interpolation smear in the loop). When the time changes, the
// read moves to the new delay with a 30 ms crossfade between the old and new read positions
// (no pitch glide, no click); a change that arrives mid-fade is taken up when that fade ends.
// Every delay is at least one block, so the lines are read and written a block at a time
// (zero-copy spans of lib/delay/delayline) and the arithmetic is f32x4.

import { Effect } from "./effect";
import { BLOCK } from "../lib/constants";
import { DelayLine } from "../lib/delay/delayline";
import { Smoothed, blockCoef } from "../lib/smooth";
import { ftz } from "../lib/math";
import { opaque } from "../lib/simd";

const MAX_S: f64 = 2.0;
const FADE_S: f64 = 0.03;

export class PingPong extends Effect {
  left!: DelayLine;
  right!: DelayLine;
  feedback: Smoothed = new Smoothed();
  mix: Smoothed = new Smoothed();
  target: i32 = 0;   // wanted left delay, frames
  cur: i32 = 0;      // left delay being read
  next: i32 = 0;     // left delay faded towards (== cur when not fading)
  fade: i32 = 0;     // frames into the current crossfade
  fadeLen: i32 = 1440;
  coef: f32 = 0.1;
  tmpA: StaticArray<f32> = new StaticArray<f32>(BLOCK);
  tmpB: StaticArray<f32> = new StaticArray<f32>(BLOCK);
  tmpC: StaticArray<f32> = new StaticArray<f32>(BLOCK);
  tmpD: StaticArray<f32> = new StaticArray<f32>(BLOCK);

  init(fs: f64): void {
    super.init(fs);
    this.coef = blockCoef(fs);
    this.fadeLen = max(1, <i32>Math.round(FADE_S * fs));
    this.left = new DelayLine(<i32>Math.ceil(MAX_S * fs) + 2);
    this.right = new DelayLine(<i32>Math.ceil(1.5 * MAX_S * fs) + 4);
  }

  set(value: f32, e1: f32, e2: f32, e3: f32): void {
    super.set(value, e1, e2, e3);
    const s = Math.min(Math.max(<f64>value, 0.01), MAX_S);
    this.target = max(BLOCK, <i32>Math.round(s * this.fs));
    this.feedback.target = Mathf.min(Mathf.max(e1, 0.0), 0.95);
    this.mix.target = Mathf.min(Mathf.max(e2, 0.0), 1.0);
  }

  reset(): void {
    this.feedback.jump(this.feedback.target);
    this.mix.jump(this.mix.target);
    this.cur = this.target;
    this.next = this.target;
    this.fade = 0;
    this.left.reset();
    this.right.reset();
  }

  process(l: usize, r: usize, n: i32): void {
    const f0 = this.feedback.value, f1 = this.feedback.step(this.coef);
    const m0 = this.mix.value, m1 = this.mix.step(this.coef);
    if (this.next == this.cur && this.target != this.cur) {
      this.next = this.target;
      this.fade = 0;
    }
    const a = this.left, b = this.right;
    // Every delay is longer than a block, so the block's echoes are already in the lines.
    const dl = this.cur, dr = dl + (dl >> 1);
    const ta = changetype<usize>(this.tmpA), tb = changetype<usize>(this.tmpB);
    let el = a.readSpanInline(ta, dl, n);
    let er = b.readSpanInline(tb, dr, n);
    if (this.next != this.cur) {
      // Crossfade old -> new read position: t = (fade + j + 1) / fadeLen, capped at 1.
      const nl = this.next, nr = nl + (nl >> 1);
      const pa = a.readSpanInline(changetype<usize>(this.tmpC), nl, n);
      const pb = b.readSpanInline(changetype<usize>(this.tmpD), nr, n);
      const inv: f32 = 1.0 / <f32>this.fadeLen;
      const t0 = <f32>this.fade;
      for (let j = 0; j < n; j++) {
        const o = <usize>j << 2;
        const t = Mathf.min(1.0, (t0 + <f32>(j + 1)) * inv);
        const x = load<f32>(el + o), y = load<f32>(er + o);
        store<f32>(ta + o, x + (load<f32>(pa + o) - x) * t);
        store<f32>(tb + o, y + (load<f32>(pb + o) - y) * t);
      }
      el = ta;
      er = tb;
      this.fade += n;
      if (this.fade >= this.fadeLen) {
        this.cur = this.next;
        this.fade = 0;
      }
    }
    let wa = a.writeSpanInline(n), wb = b.writeSpanInline(n);
    const sa = wa != 0, sb = wb != 0;
    if (!sa) wa = changetype<usize>(this.tmpC);
    if (!sb) wb = changetype<usize>(this.tmpD);
    const inv: f32 = 1.0 / <f32>n;
    const fs = (f1 - f0) * inv, ms = (m1 - m0) * inv;
    const tiny = opaque(f32x4.splat(1e-18));
    let fv = f32x4(f0 + fs, f0 + 2.0 * fs, f0 + 3.0 * fs, f0 + 4.0 * fs);
    let mv = f32x4(m0 + ms, m0 + 2.0 * ms, m0 + 3.0 * ms, m0 + 4.0 * ms);
    const fd = f32x4.splat(4.0 * fs), md = f32x4.splat(4.0 * ms);
    const n4 = n & ~3;
    for (let j = 0; j < n4; j += 4) {
      const o = <usize>j << 2;
      const xl = v128.load(l + o), xr = v128.load(r + o);
      const yl = v128.load(el + o), yr = v128.load(er + o);
      // Cross feedback, flushed to zero before it can turn denormal (lib/math ftz).
      v128.store(wa + o, f32x4.sub(f32x4.add(f32x4.add(xl, f32x4.mul(fv, yr)), tiny), tiny));
      v128.store(wb + o, f32x4.sub(f32x4.add(f32x4.add(xr, f32x4.mul(fv, yl)), tiny), tiny));
      v128.store(l + o, f32x4.add(xl, f32x4.mul(f32x4.sub(yl, xl), mv)));
      v128.store(r + o, f32x4.add(xr, f32x4.mul(f32x4.sub(yr, xr), mv)));
      fv = f32x4.add(fv, fd);
      mv = f32x4.add(mv, md);
    }
    for (let j = n4; j < n; j++) {
      const o = <usize>j << 2;
      const fb = f0 + fs * <f32>(j + 1), mix = m0 + ms * <f32>(j + 1);
      const xl = load<f32>(l + o), xr = load<f32>(r + o);
      const yl = load<f32>(el + o), yr = load<f32>(er + o);
      store<f32>(wa + o, ftz(xl + fb * yr));
      store<f32>(wb + o, ftz(xr + fb * yl));
      store<f32>(l + o, xl + (yl - xl) * mix);
      store<f32>(r + o, xr + (yr - xr) * mix);
    }
    if (sa) a.commit(n); else a.writeBlock(wa, n);
    if (sb) b.commit(n); else b.writeBlock(wb, n);
  }
}
