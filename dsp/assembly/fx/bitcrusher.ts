// Bitcrusher: requantises the signal to `value` bits (1-16). The converter's full scale is the
// tone mix's nominal peak, 0.15 (TONE_GAIN: one channel at the default volume); louder input
// clips there, as a real converter would. Quantisation happens here in the effect chain, i.e.
// before the master gain and the master compressor (which then scale the levels; with master
// gain 1 and the compressor off the output holds exactly the quantiser's levels).
//
// Levels, at most 2^bits of them:
//  - bits >= 2: a symmetric mid-tread quantiser, round(x / FS * M) / M * FS with M = 2^(bits-1) - 1,
//    i.e. the 2^bits - 1 levels -M..M (zero included, so silence stays silent);
//  - 1 bit: the sign, +/- FS / sqrt 2 (two levels, a square with the power of a full-scale sine).
// A change of bit depth crossfades the two quantisers over one block.

import { Effect } from "./effect";
import { TONE_GAIN } from "../lib/constants";

const FS: f32 = TONE_GAIN;

export class Bitcrusher extends Effect {
  bits: i32 = 8;
  current: i32 = 8;

  set(value: f32, e1: f32, e2: f32, e3: f32): void {
    super.set(value, e1, e2, e3);
    const b = <i32>Mathf.round(value);
    this.bits = b < 1 ? 1 : (b > 16 ? 16 : b);
  }

  reset(): void {
    this.current = this.bits;
  }

  process(l: usize, r: usize, n: i32): void {
    const want = this.bits;
    const from = this.current;
    if (want == from) {
      crush(l, r, n, want);
      return;
    }
    this.current = want;
    crossfade(l, n, from, want);
    crossfade(r, n, from, want);
  }
}

// @ts-ignore: decorator
@inline
function quantise(x: f32, bits: i32): f32 {
  if (bits == 1) return x >= 0.0 ? FS * 0.70710678 : -FS * 0.70710678;
  const m = <f32>((1 << (bits - 1)) - 1);
  const u = Mathf.min(Mathf.max(x * (1.0 / FS), -1.0), 1.0);
  return nearest<f32>(u * m) * (FS / m);
}

/** Both channels in place, four samples per v128 step (n is a multiple of 4: the engine's
 *  block is BLOCK = 256). pmin/pmax are single instructions (min/max with NaN propagation are not). */
function crush(l: usize, r: usize, n: i32, bits: i32): void {
  if (bits == 1) {
    const hi = f32x4.splat(FS * 0.70710678);
    const lo = f32x4.splat(-FS * 0.70710678);
    const zero = f32x4.splat(0.0);
    for (let i = 0; i + 4 <= n; i += 4) {
      const o = <usize>i << 2;
      v128.store(l + o, v128.bitselect(hi, lo, f32x4.ge(v128.load(l + o), zero)));
      v128.store(r + o, v128.bitselect(hi, lo, f32x4.ge(v128.load(r + o), zero)));
    }
  } else {
    const m = <f32>((1 << (bits - 1)) - 1);
    const scale = f32x4.splat(m / FS);
    const back = f32x4.splat(FS / m);
    const top = f32x4.splat(m);
    const bottom = f32x4.splat(-m);
    for (let i = 0; i + 4 <= n; i += 4) {
      const o = <usize>i << 2;
      const u = f32x4.pmin(f32x4.pmax(f32x4.mul(v128.load(l + o), scale), bottom), top);
      const v = f32x4.pmin(f32x4.pmax(f32x4.mul(v128.load(r + o), scale), bottom), top);
      v128.store(l + o, f32x4.mul(f32x4.nearest(u), back));
      v128.store(r + o, f32x4.mul(f32x4.nearest(v), back));
    }
  }
  for (let i = n & ~3; i < n; i++) {
    const o = <usize>i << 2;
    store<f32>(l + o, quantise(load<f32>(l + o), bits));
    store<f32>(r + o, quantise(load<f32>(r + o), bits));
  }
}

function crossfade(p: usize, n: i32, from: i32, to: i32): void {
  const step: f32 = 1.0 / <f32>n;
  let t: f32 = 0.0;
  for (let i = 0; i < n; i++) {
    t += step;
    const q = p + (<usize>i << 2);
    const x = load<f32>(q);
    const a = quantise(x, from);
    store<f32>(q, a + (quantise(x, to) - a) * t);
  }
}
