// SIMD (v128) helpers shared by the effects: loop constants kept in registers (opaque), lane sums
// and a bit-exact equality test of two blocks.

/**
 * Adds the lane sums of n per-sample v128 values (at `vecs`, 16 bytes each) to the samples at
 * `dst` (and at `dst2` when it is not 0). Four samples at a time: a 4x4 transpose by unpack
 * shuffles, which is far cheaper than four lane extractions per sample. n is a multiple of 4.
 */
export function addLaneSums(vecs: usize, n: i32, dst: usize, dst2: usize): void {
  for (let i = 0; i < n; i += 4) {
    const q = vecs + (<usize>i << 4);
    const a = v128.load(q), b = v128.load(q, 16), c = v128.load(q, 32), d = v128.load(q, 48);
    const u1 = f32x4.add(v128.shuffle<f32>(a, b, 0, 4, 1, 5), v128.shuffle<f32>(a, b, 2, 6, 3, 7));
    const u2 = f32x4.add(v128.shuffle<f32>(c, d, 0, 4, 1, 5), v128.shuffle<f32>(c, d, 2, 6, 3, 7));
    const s = f32x4.add(v128.shuffle<f32>(u1, u2, 0, 1, 4, 5), v128.shuffle<f32>(u1, u2, 2, 3, 6, 7));
    const o = <usize>i << 2;
    v128.store(dst + o, f32x4.add(v128.load(dst + o), s));
    if (dst2 != 0) v128.store(dst2 + o, f32x4.add(v128.load(dst2 + o), s));
  }
}

/** True when the n samples at a and b are bit-identical (a mono block), four lanes per step;
 *  n is a multiple of 4. No branch in the loop: cheaper than memory.compare's byte-wise loop,
 *  and than an early exit for the mono blocks that are the usual case. */
export function sameSamples(a: usize, b: usize, n: i32): bool {
  let diff = i32x4.splat(0);
  for (let i = 0; i < n; i += 4) {
    const o = <usize>i << 2;
    diff = v128.or(diff, v128.xor(v128.load(a + o), v128.load(b + o)));
  }
  return !v128.any_true(diff);
}

const OPAQUE = new StaticArray<f32>(4);

/** The same v128, passed through memory so that it reaches the engine as a loaded value, not a
 *  constant: V8 rematerialises a v128 constant inside a loop at every use (three instructions:
 *  a 64-bit immediate, a move and a shuffle), while a loaded value stays in a register. Call it
 *  once before a hot loop for the loop's vector constants. */
// @ts-ignore: decorator
@inline
export function opaque(v: v128): v128 {
  const p = changetype<usize>(OPAQUE);
  v128.store(p, v);
  return v128.load(p);
}
