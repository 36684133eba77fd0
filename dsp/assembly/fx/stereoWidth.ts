// Stereo Width: mid/side scaling. M = (L + R) / 2, S = (L - R) / 2, S' = S * value / 100;
// L = M + S', R = M - S'. 0% folds to mono (L == R exactly), 100% leaves the signal unchanged,
// 200% doubles the side (extra wide). The width is smoothed per block and ramps inside it.
// The channels are mono before the stereo effects, so width acts on what pan, ping-pong,
// chorus, the granulators, reverb or binaural have spread (all run in earlier slots).

import { Effect } from "./effect";
import { Smoothed, blockCoef } from "../lib/smooth";
import { opaque } from "../lib/simd";

export class StereoWidth extends Effect {
  width: Smoothed = new Smoothed();
  coef: f32 = 0.1;

  init(fs: f64): void {
    super.init(fs);
    this.coef = blockCoef(fs);
  }

  set(value: f32, e1: f32, e2: f32, e3: f32): void {
    super.set(value, e1, e2, e3);
    this.width.target = Mathf.min(Mathf.max(value * 0.01, 0.0), 2.0);
  }

  reset(): void {
    this.width.jump(this.width.target);
  }

  process(l: usize, r: usize, n: i32): void {
    const w0 = this.width.value;
    const w1 = this.width.step(this.coef);
    const half = opaque(f32x4.splat(0.5));
    const n4 = n & ~3;
    if (w0 == w1) {
      const w = f32x4.splat(w1);
      for (let i = 0; i < n4; i += 4) {
        const o = <usize>i << 2;
        const a = v128.load(l + o);
        const b = v128.load(r + o);
        const m = f32x4.mul(f32x4.add(a, b), half);
        const s = f32x4.mul(f32x4.mul(f32x4.sub(a, b), half), w);
        v128.store(l + o, f32x4.add(m, s));
        v128.store(r + o, f32x4.sub(m, s));
      }
    } else {
      const st = (w1 - w0) / <f32>n;
      let w = f32x4(w0 + st, w0 + 2.0 * st, w0 + 3.0 * st, w0 + 4.0 * st);
      const dw = f32x4.splat(4.0 * st);
      for (let i = 0; i < n4; i += 4) {
        const o = <usize>i << 2;
        const a = v128.load(l + o);
        const b = v128.load(r + o);
        const m = f32x4.mul(f32x4.add(a, b), half);
        const s = f32x4.mul(f32x4.mul(f32x4.sub(a, b), half), w);
        v128.store(l + o, f32x4.add(m, s));
        v128.store(r + o, f32x4.sub(m, s));
        w = f32x4.add(w, dw);
      }
    }
    for (let i = n4; i < n; i++) {
      const o = <usize>i << 2;
      const w = w0 + (w1 - w0) * <f32>(i + 1) / <f32>n;
      const a = load<f32>(l + o);
      const b = load<f32>(r + o);
      const m = (a + b) * 0.5;
      const s = (a - b) * 0.5 * w;
      store<f32>(l + o, m + s);
      store<f32>(r + o, m - s);
    }
  }
}
