// Reads of the engine's wavetables by a u32 phase (12 index bits, 20 fraction bits): the
// 4096-point sine table (osc/wavetable.ts, with its guard sample) for LFOs and rotator seeds, and
// four-lane (value, slope) pair lookups for the tone effects' own copies of the tables. Linear
// interpolation on a 4096-point table is accurate to about -130 dB for a sine.

import { tableFor, WAVE_SINE } from "../../osc/wavetable";

const INV_2_20: f32 = 1.0 / 1048576.0;
export const TWO32: f64 = 4294967296.0;
/** A quarter cycle in u32 phase units: tableAt(t, p + QUARTER) is the cosine. */
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
