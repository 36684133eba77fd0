// Oscillator helpers shared by the tone and modulation effects: lookups into the engine's
// 4096-point sine table (osc/wavetable.ts, with its guard sample) by a u32 phase, and a sine LFO
// whose phase is kept in f64 (no drift over a 12-hour render) and converted to u32 once per block.
// Linear interpolation on a 4096-point table is accurate to about -130 dB for a sine.

import { tableFor, WAVE_SINE } from "../osc/wavetable";

const INV_2_20: f32 = 1.0 / 1048576.0;
export const TWO32: f64 = 4294967296.0;
/** A quarter cycle in u32 phase units: sineAt(t, p + QUARTER) is the cosine. */
export const QUARTER: u32 = 0x40000000;

/** Address of the engine's sine table (valid after buildTables(), i.e. in Effect.init()). */
export function sineTable(): usize {
  return tableFor(WAVE_SINE, 0.0);
}

/** Table lookup with linear interpolation: 12 index bits, 20 fraction bits. */
// @ts-ignore: decorator
@inline
export function tableAt(table: usize, p: u32): f32 {
  const q = table + (<usize>(p >>> 20) << 2);
  const a = load<f32>(q);
  return a + (load<f32>(q, 4) - a) * (<f32>(p & 0xfffff) * INV_2_20);
}

/** Cycles per sample (f64) to a u32 phase increment; clamped below Nyquist. */
// @ts-ignore: decorator
@inline
export function incU32(cyclesPerSample: f64): u32 {
  const c = Math.min(Math.max(cyclesPerSample, 0.0), 0.4999);
  return <u32>(<u64>(c * TWO32));
}

/**
 * Sine LFO with a smoothed rate. begin() returns the u32 phase at the block start and sets `inc`
 * (the block's u32 increment, the average of the old and new rate); the exact phase lives in f64.
 */
export class Lfo {
  phase: f64 = 0.0; // cycles, [0, 1)
  rate: f64 = 0.0;  // Hz, smoothed
  inc: u32 = 0;

  reset(rate: f64): void {
    this.phase = 0.0;
    this.rate = rate;
  }

  /** Starts a block of n frames toward `target` Hz; coef is the per-block smoothing step. */
  begin(target: f64, coef: f64, n: i32, fs: f64): u32 {
    const r0 = this.rate;
    let r1 = r0 + (target - r0) * coef;
    if (Math.abs(r1 - target) < 1e-9) r1 = target;
    this.rate = r1;
    const cps = (r0 + r1) * 0.5 / fs;
    const p = this.phase;
    this.inc = <u32>(<u64>(cps * TWO32));
    // The f64 phase advances by the exact rate; the u32 phase is re-derived from it every block
    // (a correction below 1e-7 cycles), so the LFO never drifts.
    let next = p + cps * <f64>n;
    next -= Math.floor(next);
    this.phase = next;
    return <u32>(<u64>(p * TWO32));
  }
}

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

/** 16 bytes of scratch for the gathers' lane offsets. */
const GATHER: usize = memory.data(16, 16);
/** The gathers' constants, read from memory where used (as splats the compiler rebuilt them on
 *  every call): the 20-bit fraction mask and its scale. */
const FRAC_MASK: usize = memory.data<u32>([0xfffff, 0xfffff, 0xfffff, 0xfffff], 16);
const FRAC_SCALE: usize = memory.data<f32>([1.0 / 1048576.0, 1.0 / 1048576.0, 1.0 / 1048576.0, 1.0 / 1048576.0], 16);

/**
 * Four table reads at once: lane k reads the (value, slope) pair table whose address is lane k
 * of `base` at the u32 phase in lane k of `p` (12 index bits, 20 fraction bits). One 64-bit lane
 * load fetches both interpolation points. The four addresses go out through one vector store and
 * come back as scalar loads (store-forwarded), which keeps the shuffle port free: lane
 * extractions and inserts all compete for it, and they were what bounded the oscillators.
 */
// @ts-ignore: decorator
@inline
export function pairLookup4(p: v128, base: v128): v128 {
  v128.store(GATHER, i32x4.add(base, i32x4.shl(i32x4.shr_u(p, 20), 3)));
  const a = v128.load64_lane(<usize>load<u32>(GATHER, 4), v128.load64_zero(<usize>load<u32>(GATHER)), 1);
  const b = v128.load64_lane(<usize>load<u32>(GATHER, 12), v128.load64_zero(<usize>load<u32>(GATHER, 8)), 1);
  const v = v128.shuffle<f32>(a, b, 0, 2, 4, 6);
  const d = v128.shuffle<f32>(a, b, 1, 3, 5, 7);
  const fr = f32x4.mul(f32x4.convert_i32x4_s(v128.and(p, v128.load(FRAC_MASK))), v128.load(FRAC_SCALE));
  return f32x4.add(v, f32x4.mul(d, fr));
}

/** True when the n samples at a and b are bit-identical (a mono block), four lanes per step;
 *  n is a multiple of 4. Cheaper than memory.compare's byte-wise loop. */
export function sameSamples(a: usize, b: usize, n: i32): bool {
  let diff = i32x4.splat(0);
  for (let i = 0; i < n; i += 4) {
    const o = <usize>i << 2;
    diff = v128.or(diff, v128.xor(v128.load(a + o), v128.load(b + o)));
  }
  return !v128.any_true(diff);
}
