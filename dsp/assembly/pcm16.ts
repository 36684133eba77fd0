// PCM16 for WAV export: the engine's float output converted to interleaved little-endian 16-bit
// samples with TPDF dither, in wasm memory, so the export worker and the CLI copy finished file
// bytes straight out (no per-sample JavaScript).
//
// Dither: triangular (TPDF, +-1 LSB in steps of 1/256 LSB): the sum of two uniform random bytes
// minus its mean; one 32-bit random number holds the four bytes of a frame (left: bytes 0 + 1,
// right: 2 + 3, which one pairwise add gives already interleaved).
// The random number for frame n is a hash of n and the seed (counter-based, after
// Salmon et al., "Parallel random numbers: as easy as 1, 2, 3", SC 2011; hash: Wellons'
// "lowbias32"), not the next state of a sequential generator, so it vectorises (four frames per
// step) and the bytes depend only on the seed and the frame's position: how an export is cut into
// render calls never changes them. The frame counter restarts with the engine (start()) and
// would repeat only after 2^32 frames (24.8 hours at 48 kHz; exports end at 12).
// Rounding: v = x * 32767 + dither to the nearest integer (ties to even) by adding 1.5 * 2^23,
// which leaves the integer in the float's low mantissa bits (cheaper than a saturating float ->
// int conversion), then saturated to [-32768, 32767].

import { MAX_FRAMES } from "./lib/constants";
import { opaque } from "./lib/simd";

/** +1.0 maps to +32767 and -1.0 to -32767 (symmetric; -32768 only through dither). */
const SCALE: f32 = 32767.0;

export const pcmOut = new StaticArray<i16>(MAX_FRAMES * 2);

/** 1.5 * 2^23: v + MAGIC has ulp 1, and its bits minus MAGIC_BITS are round(v) for |v| < 2^22. */
const MAGIC: f32 = 12582912.0;
const MAGIC_BITS: i32 = 0x4b400000;

let key: u32 = 0;
let frame: u32 = 0; // frames encoded since the last restart

// Keys for the two channels' streams, derived from the seed (splitmix32-style scrambling so that
// nearby seeds give unrelated streams).
function scramble(x: u32): u32 {
  x += 0x9e3779b9;
  x = (x ^ (x >> 16)) * 0x21f0aaad;
  x = (x ^ (x >> 15)) * 0x735a2d97;
  return x ^ (x >> 15);
}

export function setDitherSeed(seed: u32): void {
  key = scramble(seed);
}

/** Restarts the frame counter (the engine's start()). */
export function restartDither(): void {
  frame = 0;
}

/** The dither's stream key (from the seed) and the frame counter, for the 24-bit path
 *  (pcm24.ts), which draws the same random numbers for the same frames. */
export function ditherKey(): u32 {
  return key;
}

export function ditherFrame(): u32 {
  return frame;
}

export function advanceDither(n: u32): void {
  frame += n;
}

// @ts-ignore: decorator
@inline
export function lowbias32(x: u32): u32 {
  x ^= x >> 16;
  x *= 0x7feb352d;
  x ^= x >> 15;
  x *= 0x846ca68b;
  return x ^ (x >> 16);
}

// @ts-ignore: decorator
@inline
export function lowbias32x4(x: v128, m1: v128, m2: v128): v128 {
  x = v128.xor(x, i32x4.shr_u(x, 16));
  x = i32x4.mul(x, m1);
  x = v128.xor(x, i32x4.shr_u(x, 15));
  x = i32x4.mul(x, m2);
  return v128.xor(x, i32x4.shr_u(x, 16));
}

export const BYTE: f32 = 1.0 / 256.0;

/** TPDF dither in LSB from two random bytes: (a + b - 255) / 256, in [-255/256, 255/256]. */
// @ts-ignore: decorator
@inline
export function tpdf(a: u32, b: u32): f32 {
  return <f32>(<i32>(a + b) - 255) * BYTE;
}

// @ts-ignore: decorator
@inline
function quantize(x: f32, d: f32): i32 {
  const q = reinterpret<i32>(x * SCALE + d + MAGIC) - MAGIC_BITS;
  return q > 32767 ? 32767 : q < -32768 ? -32768 : q;
}

/** Converts `n` frames of planar float (`l`, `r`) to interleaved PCM16 in pcmOut. */
export function encodePcm16(l: usize, r: usize, n: i32): void {
  const out = changetype<usize>(pcmOut);
  // Loop constants through opaque(): V8 would rebuild a constant vector at every use.
  const k = i32x4.splat(<i32>key);
  const m1 = opaque(i32x4.splat(0x7feb352d));
  const m2 = opaque(i32x4.splat(<i32>0x846ca68b));
  const scale = opaque(f32x4.splat(SCALE));
  const magic = opaque(f32x4.splat(MAGIC));
  const magicBits = opaque(i32x4.splat(MAGIC_BITS));
  const mean = opaque(i16x8.splat(255));
  const step = opaque(f32x4.splat(BYTE));
  const four = opaque(i32x4.splat(4));
  let idx = i32x4.add(i32x4.splat(<i32>frame), i32x4(0, 1, 2, 3));
  const whole = n & ~3;
  for (let i = 0; i < whole; i += 4) {
    const o = <usize>i << 2;
    const h = lowbias32x4(i32x4.add(idx, k), m1, m2);
    // Per lane (frame) b0 + b1 and b2 + b3, minus 255: L0 R0 L1 R1 L2 R2 L3 R3 as i16x8.
    const pairs = i16x8.sub(i16x8.extadd_pairwise_i8x16_u(h), mean);
    const d01 = f32x4.mul(f32x4.convert_i32x4_s(i32x4.extend_low_i16x8_s(pairs)), step);
    const d23 = f32x4.mul(f32x4.convert_i32x4_s(i32x4.extend_high_i16x8_s(pairs)), step);
    // Frames interleaved first, then the same operations, in the same order, as quantize() in
    // the scalar tail below: the same bytes either way.
    const a = v128.load(l + o);
    const b = v128.load(r + o);
    const x01 = v128.shuffle<f32>(a, b, 0, 4, 1, 5);
    const x23 = v128.shuffle<f32>(a, b, 2, 6, 3, 7);
    const q01 = i32x4.sub(f32x4.add(f32x4.add(f32x4.mul(x01, scale), d01), magic), magicBits);
    const q23 = i32x4.sub(f32x4.add(f32x4.add(f32x4.mul(x23, scale), d23), magic), magicBits);
    v128.store(out + o, i16x8.narrow_i32x4_s(q01, q23));
    idx = i32x4.add(idx, four);
  }
  for (let i = whole; i < n; i++) {
    const h = lowbias32(frame + <u32>i + key);
    const o = <usize>i << 2;
    store<i16>(out + o, <i16>quantize(load<f32>(l + o), tpdf(h & 0xff, (h >> 8) & 0xff)));
    store<i16>(out + o + 2, <i16>quantize(load<f32>(r + o), tpdf((h >> 16) & 0xff, h >> 24)));
  }
  frame += <u32>n;
}
