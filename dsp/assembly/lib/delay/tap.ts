// Fractional reads and 4-frame writes on a DelayLine's ring (power-of-two, masked) for the
// modulated delays (chorus, flanger, comb). Positions are ring indices as f32, kept positive
// by an offset of one ring length, so the integer part is a truncation. Linear interpolation.

/** Sample at fractional ring position p (>= 0). */
// @ts-ignore: decorator
@inline
export function tap(buf: usize, mask: i32, p: f32): f32 {
  const i = <i32>p;
  const f = p - <f32>i;
  const a = load<f32>(buf + (<usize>(i & mask) << 2));
  const b = load<f32>(buf + (<usize>((i + 1) & mask) << 2));
  return a + (b - a) * f;
}

/** tap() at four positions at once; m = the ring mask, ramp = f32x4(0, 1, 2, 3) and magic =
 *  f32x4.splat(2^23), both passed through lib/simd opaque() before the loop (a loaded
 *  value stays in a register; V8 rebuilds a v128 constant at every use). A modulated delay moves
 *  its read position by about one frame per frame, so the four integer parts are usually k,
 *  k + 1, k + 2, k + 3: then the eight ring samples are two overlapping v128 loads. Otherwise (a
 *  fraction wraps inside the four frames, or the ring's end is inside them) they are fetched lane
 *  by lane (v128.load32_lane): there is no gather in wasm SIMD. Both paths read the same samples,
 *  so the result is the same. Positions are positive and below 2^23, so the integer part is
 *  floor (one instruction) and lane 0's integer is the mantissa of floor + 2^23. */
// @ts-ignore: decorator
@inline
export function tap4(buf: usize, m: i32, ramp: v128, magic: v128, p: v128): v128 {
  const fl = f32x4.floor(p);
  const f = f32x4.sub(p, fl);
  const k = i32x4.extract_lane(f32x4.add(fl, magic), 0) & m;
  const run = f32x4.eq(fl, f32x4.add(i32x4.shuffle(fl, fl, 0, 0, 0, 0), ramp));
  if (k + 4 <= m && i32x4.bitmask(run) == 15) {
    const q = buf + (<usize>k << 2);
    const a0 = v128.load(q), b0 = v128.load(q, 4);
    return f32x4.add(a0, f32x4.mul(f32x4.sub(b0, a0), f));
  }
  return tap4Gather(buf, m, fl, f);
}

/** The lane-by-lane path of tap4 (fl = floor of the positions, f = fractions). */
function tap4Gather(buf: usize, m: i32, fl: v128, f: v128): v128 {
  const vm = i32x4.splat(m);
  const i = i32x4.trunc_sat_f32x4_s(fl);
  const ia = i32x4.shl(v128.and(i, vm), 2);
  const ib = i32x4.shl(v128.and(i32x4.add(i, i32x4.splat(1)), vm), 2);
  let a = f32x4.splat(0.0), b = f32x4.splat(0.0);
  a = v128.load32_lane(buf + <usize>i32x4.extract_lane(ia, 0), a, 0);
  a = v128.load32_lane(buf + <usize>i32x4.extract_lane(ia, 1), a, 1);
  a = v128.load32_lane(buf + <usize>i32x4.extract_lane(ia, 2), a, 2);
  a = v128.load32_lane(buf + <usize>i32x4.extract_lane(ia, 3), a, 3);
  b = v128.load32_lane(buf + <usize>i32x4.extract_lane(ib, 0), b, 0);
  b = v128.load32_lane(buf + <usize>i32x4.extract_lane(ib, 1), b, 1);
  b = v128.load32_lane(buf + <usize>i32x4.extract_lane(ib, 2), b, 2);
  b = v128.load32_lane(buf + <usize>i32x4.extract_lane(ib, 3), b, 3);
  return f32x4.add(a, f32x4.mul(f32x4.sub(b, a), f));
}

/** Writes four consecutive frames at ring index i (masked), wrapping when needed. */
// @ts-ignore: decorator
@inline
export function put4(buf: usize, mask: i32, i: i32, v: v128): void {
  const k = i & mask;
  if (k + 4 <= mask + 1) {
    v128.store(buf + (<usize>k << 2), v);
  } else {
    store<f32>(buf + (<usize>k << 2), f32x4.extract_lane(v, 0));
    store<f32>(buf + (<usize>((k + 1) & mask) << 2), f32x4.extract_lane(v, 1));
    store<f32>(buf + (<usize>((k + 2) & mask) << 2), f32x4.extract_lane(v, 2));
    store<f32>(buf + (<usize>((k + 3) & mask) << 2), f32x4.extract_lane(v, 3));
  }
}

/** The sample `age` frames before the one at p in a linear history (fractional: linear between
 *  the two around it), for the voices' spinning noise and the soundtrack's spin. */
// @ts-ignore: decorator
@inline
export function tapBack(p: usize, age: f64): f32 {
  const whole = <i32>Math.floor(age);
  const frac = <f32>(age - <f64>whole);
  const a = load<f32>(p - (<usize>whole << 2));
  const b = load<f32>(p - (<usize>(whole + 1) << 2));
  return a + (b - a) * frac;
}
