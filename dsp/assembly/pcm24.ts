// PCM24 for 24-bit WAV and FLAC export: the engine's float output converted to interleaved
// little-endian 24-bit samples (3 bytes each), in wasm memory, beside the 16-bit path (pcm16.ts)
// and drawing the same seeded, counter-based random numbers for the same frames.
//
// Dither: TPDF of +-1 LSB at 24 bits, made exactly as the 16-bit path makes it (two random bytes
// per sample, steps of 1/256 LSB), or none (plain rounding: the float output already carries only
// 24 bits of mantissa, so some users want it as it is). With dither the noise floor is
// 0.5 LSB rms (1/6 LSB^2 of dither + 1/12 of rounding), -144.5 dBFS; without, 0.29 LSB rms.
// Arithmetic in f64: x * 8388607 needs all 24 bits of the f32 mantissa before the dither's
// fraction is added, which f32 cannot hold (the 16-bit path's magic-number rounding works only
// below 2^22). Rounding is to nearest, ties to even (f64x2.nearest), then saturated to
// [-8388608, 8388607]; the vector loop and the scalar tail do the same operations in the same
// order, so the bytes do not depend on how an export is cut into render calls.

import { MAX_FRAMES } from "./lib/constants";
import { opaque } from "./lib/simd";
import { BYTE, advanceDither, ditherFrame, ditherKey, lowbias32, lowbias32x4, tpdf } from "./pcm16";

/** +1.0 maps to +8388607 and -1.0 to -8388607 (symmetric; -8388608 only through dither). */
const SCALE: f64 = 8388607.0;
const MAX24: i32 = 8388607;
const MIN24: i32 = -8388608;

/** 6 bytes per stereo frame, plus one vector of room: the loop stores 16 bytes per 12 it keeps. */
export const pcm24Out = new StaticArray<u8>(MAX_FRAMES * 6 + 16);

// @ts-ignore: decorator
@inline
function quantize(x: f32, d: f32): i32 {
  const q = <i32>nearest<f64>(<f64>x * SCALE + <f64>d);
  return q > MAX24 ? MAX24 : q < MIN24 ? MIN24 : q;
}

// @ts-ignore: decorator
@inline
function store24(at: usize, q: i32): void {
  store<u16>(at, <u16>q);
  store<u8>(at + 2, <u8>(q >> 16));
}

/** Two stereo frames (L0 R0 L1 R1 as f32x4, with their dither in LSB) as four i32 samples. */
// @ts-ignore: decorator
@inline
function quantize4(x: v128, d: v128, scale: v128, lo: v128, hi: v128): v128 {
  const a = f64x2.nearest(f64x2.add(f64x2.mul(f64x2.promote_low_f32x4(x), scale), f64x2.promote_low_f32x4(d)));
  const xs = v128.shuffle<f32>(x, x, 2, 3, 0, 1);
  const ds = v128.shuffle<f32>(d, d, 2, 3, 0, 1);
  const b = f64x2.nearest(f64x2.add(f64x2.mul(f64x2.promote_low_f32x4(xs), scale), f64x2.promote_low_f32x4(ds)));
  const q = v128.shuffle<i32>(i32x4.trunc_sat_f64x2_s_zero(a), i32x4.trunc_sat_f64x2_s_zero(b), 0, 1, 4, 5);
  return i32x4.min_s(i32x4.max_s(q, lo), hi);
}

/** Converts `n` frames of planar float (`l`, `r`) to interleaved PCM24 in pcm24Out, with TPDF
 *  dither when `dither` is set. */
export function encodePcm24(l: usize, r: usize, n: i32, dither: bool): void {
  const out = changetype<usize>(pcm24Out);
  const key = ditherKey();
  const frame = ditherFrame();
  const k = i32x4.splat(<i32>key);
  const m1 = opaque(i32x4.splat(0x7feb352d));
  const m2 = opaque(i32x4.splat(<i32>0x846ca68b));
  const scale = opaque(f64x2.splat(SCALE));
  const lo = opaque(i32x4.splat(MIN24));
  const hi = opaque(i32x4.splat(MAX24));
  const mean = opaque(i16x8.splat(255));
  const amount: f32 = dither ? BYTE : 0.0;
  const step = opaque(f32x4.splat(amount));
  const four = opaque(i32x4.splat(4));
  let idx = i32x4.add(i32x4.splat(<i32>frame), i32x4(0, 1, 2, 3));
  const whole = n & ~3;
  for (let i = 0; i < whole; i += 4) {
    const h = lowbias32x4(i32x4.add(idx, k), m1, m2);
    const pairs = i16x8.sub(i16x8.extadd_pairwise_i8x16_u(h), mean);
    const d01 = f32x4.mul(f32x4.convert_i32x4_s(i32x4.extend_low_i16x8_s(pairs)), step);
    const d23 = f32x4.mul(f32x4.convert_i32x4_s(i32x4.extend_high_i16x8_s(pairs)), step);
    const a = v128.load(l + (<usize>i << 2));
    const b = v128.load(r + (<usize>i << 2));
    const q01 = quantize4(v128.shuffle<f32>(a, b, 0, 4, 1, 5), d01, scale, lo, hi);
    const q23 = quantize4(v128.shuffle<f32>(a, b, 2, 6, 3, 7), d23, scale, lo, hi);
    // The low three bytes of each i32 lane, packed: 12 bytes per two frames.
    const o = out + <usize>i * 6;
    v128.store(o, v128.shuffle<u8>(q01, q01, 0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13, 14, 0, 0, 0, 0));
    v128.store(o + 12, v128.shuffle<u8>(q23, q23, 0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13, 14, 0, 0, 0, 0));
    idx = i32x4.add(idx, four);
  }
  for (let i = whole; i < n; i++) {
    const h = lowbias32(frame + <u32>i + key);
    const o = out + <usize>i * 6;
    const dl = dither ? tpdf(h & 0xff, (h >> 8) & 0xff) : 0.0;
    const dr = dither ? tpdf((h >> 16) & 0xff, h >> 24) : 0.0;
    store24(o, quantize(load<f32>(l + (<usize>i << 2)), dl));
    store24(o + 3, quantize(load<f32>(r + (<usize>i << 2)), dr));
  }
  advanceDither(<u32>n);
}
