// True-peak lookahead limiter (the last stage of the master): keeps the output at or below the
// ceiling in dBTP as ITU-R BS.1770-4 annex 2 measures it (4x oversampling with the annex's
// 48-tap interpolator), with no added latency: the engine renders one block ahead and hands the
// limiter the block to output together with the next one, which is the lookahead.
//
// Per output frame n (linked stereo: one gain for both sides):
// - Detector: the true peak of each sample interval, the largest of |x[m]| and the interpolator's
//   four points in (m, m+1) on either side (libebur128 likewise reports the larger of the sample
//   and the oversampled peak).
// - need[n] = ceiling / (largest interval peak in [n - SPAN, n + LOOKAHEAD - 1 + SPAN]), at most
//   1: a min-hold over the lookahead, widened by SPAN intervals on both sides so that every gain
//   the interpolator's 12-tap window reads near a peak already respects that peak.
// - Release: the gain falls at once and rises back with a one-pole (RELEASE_SECONDS).
// - Attack: a moving average over the last LOOKAHEAD released gains. Each of them is at most
//   need[n] (the hold covers n from all of them), so their mean is too: the gain ramps down
//   smoothly over LOOKAHEAD frames and is already low enough when the peak arrives.
// The internal ceiling sits MARGIN_DB under the stated one: the gain moves under the
// interpolator's window, so the oversampled result is not exactly the gain times the oversampled
// input (measured: the margin is never used up, tests/unit/dsp/assembly/levels.test.ts).
//
// Passthrough: the interpolator can raise a sample peak by at most the largest sum of |taps| of
// a phase (2.03, +6.1 dB). When the limiter is fully released and every sample near the block is
// under ceiling / that sum, no gain below 1 can arise, and the block is left untouched: output
// bit-identical to the engine without a limiter, at the cost of one peak scan per block.

import { BLOCK } from "./constants";
import { LIMITER_CEILING_DBTP } from "../../host/model/limits";

/** Attack and lookahead in frames (2.7 ms at 48 kHz): a power of 2 below BLOCK - SPAN - 11, so
 *  that every interval the block's gains depend on is inside the next block. */
export const LOOKAHEAD: i32 = 128;
/** Intervals either side of a frame whose peak its gain must respect (the interpolator's reach). */
const SPAN: i32 = 7;
/** Taps per phase of the annex 2 interpolator. */
const TAPS: i32 = 12;
/** Raw samples kept from the previous block: the first intervals' windows reach back this far. */
const HISTORY: i32 = SPAN + 5;
/** Release time constant. */
const RELEASE_SECONDS: f64 = 0.2;
/** Internal ceiling under the stated one. */
const MARGIN_DB: f64 = 0.3;
/** Intervals computed per block. */
const INTERVALS: i32 = BLOCK + LOOKAHEAD - 1 + 2 * SPAN;

// ITU-R BS.1770-4 annex 2, table 1: the 4 phases of the 48-tap interpolator, 12 taps each;
// phase p, tap k weighs x[n - k]; phase p's output at n is the point n - 5.875 + p/4 (the 48-tap
// filter is symmetric about 23.5 in the 4x domain), so its four points fall inside (n - 6, n - 5).
const PHASES: StaticArray<f64> = [
  0.0017089843750, 0.0109863281250, -0.0196533203125, 0.0332031250000, -0.0594482421875, 0.1373291015625,
  0.9721679687500, -0.1022949218750, 0.0476074218750, -0.0266113281250, 0.0148925781250, -0.0083007812500,
  -0.0291748046875, 0.0292968750000, -0.0517578125000, 0.0891113281250, -0.1665039062500, 0.4650878906250,
  0.7797851562500, -0.2003173828125, 0.1015625000000, -0.0582275390625, 0.0330810546875, -0.0189208984375,
  -0.0189208984375, 0.0330810546875, -0.0582275390625, 0.1015625000000, -0.2003173828125, 0.7797851562500,
  0.4650878906250, -0.1665039062500, 0.0891113281250, -0.0517578125000, 0.0292968750000, -0.0291748046875,
  -0.0083007812500, 0.0148925781250, -0.0266113281250, 0.0476074218750, -0.1022949218750, 0.9721679687500,
  0.1373291015625, -0.0594482421875, 0.0332031250000, -0.0196533203125, 0.0109863281250, 0.0017089843750,
];

/** Largest |x| of n samples at l and at r (n a multiple of 8). pmax, not max: one instruction
 *  (max's NaN rules cost V8 several), and the engine's samples are never NaN; two accumulators
 *  so that consecutive maxima do not wait for each other. */
export function blockPeak(l: usize, r: usize, n: i32): f32 {
  let a = f32x4.splat(0.0);
  let b = f32x4.splat(0.0);
  for (let i = 0; i < n; i += 8) {
    const o = <usize>i << 2;
    a = f32x4.pmax(a, f32x4.pmax(f32x4.abs(v128.load(l + o)), f32x4.abs(v128.load(r + o))));
    b = f32x4.pmax(b, f32x4.pmax(f32x4.abs(v128.load(l + o, 16)), f32x4.abs(v128.load(r + o, 16))));
  }
  const m = f32x4.pmax(a, b);
  return Mathf.max(
    Mathf.max(f32x4.extract_lane(m, 0), f32x4.extract_lane(m, 1)),
    Mathf.max(f32x4.extract_lane(m, 2), f32x4.extract_lane(m, 3)),
  );
}

export class Limiter {
  enabled: bool = false;
  /** Lowest gain applied since reset() (1 = never limited): lets an export know it engaged. */
  minGain: f32 = 1.0;
  ceiling: f32 = 1.0;
  /** Sample peak under which the block needs no gain below 1. */
  passBound: f32 = 1.0;
  release: f32 = 0.0;
  /** Tap-major interpolator: tap k is one v128 of the 4 phases' k-th coefficient. */
  taps: StaticArray<f32> = new StaticArray<f32>(TAPS * 4);
  /** [HISTORY raw samples of the previous block | the block | the next block], per side. */
  extL: StaticArray<f32> = new StaticArray<f32>(HISTORY + 2 * BLOCK);
  extR: StaticArray<f32> = new StaticArray<f32>(HISTORY + 2 * BLOCK);
  /** Interval peaks, interval m at index m + SPAN. */
  peaks: StaticArray<f32> = new StaticArray<f32>(INTERVALS);
  /** The sliding maximum's deque of peak indices. */
  deque: StaticArray<i32> = new StaticArray<i32>(INTERVALS);
  /** The last LOOKAHEAD released gains (the moving average's window). */
  ring: StaticArray<f32> = new StaticArray<f32>(LOOKAHEAD);
  ringPos: i32 = 0;
  gain: f32 = 1.0; // the released gain of the last frame
  released: bool = true;
  prevPeak: f32 = 0.0;

  init(fs: f64): void {
    this.ceiling = <f32>Math.pow(10.0, (<f64>LIMITER_CEILING_DBTP - MARGIN_DB) / 20.0);
    this.release = <f32>(1.0 - Math.exp(-1.0 / (RELEASE_SECONDS * fs)));
    let worst = 0.0;
    for (let p = 0; p < 4; p++) {
      let sum = 0.0;
      for (let k = 0; k < TAPS; k++) {
        sum += Math.abs(PHASES[p * TAPS + k]);
        this.taps[k * 4 + p] = <f32>PHASES[p * TAPS + k];
      }
      worst = Math.max(worst, sum);
    }
    // Rounded down a little so that f32 rounding of the products cannot cross the ceiling.
    this.passBound = <f32>(<f64>this.ceiling / worst * 0.999);
    this.reset();
  }

  reset(): void {
    for (let i = 0; i < LOOKAHEAD; i++) this.ring[i] = 1.0;
    memory.fill(changetype<usize>(this.extL), 0, <usize>HISTORY << 2);
    memory.fill(changetype<usize>(this.extR), 0, <usize>HISTORY << 2);
    this.ringPos = 0;
    this.gain = 1.0;
    this.released = true;
    this.prevPeak = 0.0;
    this.minGain = 1.0;
  }

  /** Limits the block at (l, r) in place, reading the next block (nl, nr) as lookahead; the
   *  peaks are the blocks' sample peaks (blockPeak). Also applies the final clamp to [-1, 1]. */
  process(l: usize, r: usize, peak: f32, nl: usize, nr: usize, nextPeak: f32): void {
    const xl = changetype<usize>(this.extL);
    const xr = changetype<usize>(this.extR);
    const bytes = <usize>BLOCK << 2;
    const hist = <usize>HISTORY << 2;
    const near = Mathf.max(this.prevPeak, Mathf.max(peak, nextPeak));
    this.prevPeak = peak;
    if (this.released && near <= this.passBound) {
      // Nothing near this block can need a gain below 1: untouched. Keep the raw history.
      memory.copy(xl, l + bytes - hist, hist);
      memory.copy(xr, r + bytes - hist, hist);
      return;
    }
    memory.copy(xl + hist, l, bytes);
    memory.copy(xr + hist, r, bytes);
    memory.copy(xl + hist + bytes, nl, bytes);
    memory.copy(xr + hist + bytes, nr, bytes);
    this.detect(xl, xr);
    this.apply(l, r, xl + hist, xr + hist);
    // The next block's history: this block's last raw samples.
    memory.copy(xl, xl + bytes, hist);
    memory.copy(xr, xr + bytes, hist);
  }

  /** Interval peaks for m in [-SPAN, BLOCK + LOOKAHEAD - 2 + SPAN]. Frame m of the block is at
   *  ext index m + HISTORY; the interpolator's points in (m, m+1) come from x[m-5 .. m+6]. */
  private detect(xl: usize, xr: usize): void {
    const t = changetype<usize>(this.taps);
    const pk = changetype<usize>(this.peaks);
    for (let i = 0; i < INTERVALS; i++) {
      // Interval m = i - SPAN; its newest input x[m + 6] is at ext index m + 6 + HISTORY.
      const newest = <usize>(i - SPAN + 6 + HISTORY) << 2;
      let yl = f32x4.splat(0.0);
      let yr = f32x4.splat(0.0);
      for (let k = 0; k < TAPS; k++) {
        const h = v128.load(t + (<usize>k << 4));
        const o = newest - (<usize>k << 2);
        yl = f32x4.add(yl, f32x4.mul(h, v128.load32_splat(xl + o)));
        yr = f32x4.add(yr, f32x4.mul(h, v128.load32_splat(xr + o)));
      }
      const a = f32x4.max(f32x4.abs(yl), f32x4.abs(yr));
      const m = <usize>(i - SPAN + HISTORY) << 2;
      const own = Mathf.max(Mathf.abs(load<f32>(xl + m)), Mathf.abs(load<f32>(xr + m)));
      const p = Mathf.max(
        Mathf.max(f32x4.extract_lane(a, 0), f32x4.extract_lane(a, 1)),
        Mathf.max(Mathf.max(f32x4.extract_lane(a, 2), f32x4.extract_lane(a, 3)), own),
      );
      store<f32>(pk + (<usize>i << 2), p);
    }
  }

  /** Hold, release, moving average and gain for each frame of the block (raw input at sl/sr). */
  private apply(l: usize, r: usize, sl: usize, sr: usize): void {
    const pk = changetype<usize>(this.peaks);
    const dq = changetype<usize>(this.deque);
    const ring = changetype<usize>(this.ring);
    const ceiling = this.ceiling;
    const rel = this.release;
    // The window's sum, recomputed each block so that rounding never accumulates.
    let sum: f64 = 0.0;
    for (let i = 0; i < LOOKAHEAD; i++) sum += <f64>load<f32>(ring + (<usize>i << 2));
    const inv: f64 = 1.0 / <f64>LOOKAHEAD;
    let head = 0, tail = 0, next = 0;
    let g = this.gain;
    let pos = this.ringPos;
    let low = this.minGain;
    for (let j = 0; j < BLOCK; j++) {
      // Window of peak indices [j, j + LOOKAHEAD - 1 + 2 SPAN] (intervals j - SPAN .. j + LOOKAHEAD - 1 + SPAN).
      const hi = j + LOOKAHEAD - 1 + 2 * SPAN;
      while (next <= hi) {
        const v = load<f32>(pk + (<usize>next << 2));
        while (tail > head && load<f32>(pk + (<usize>load<i32>(dq + (<usize>(tail - 1) << 2)) << 2)) <= v) tail--;
        store<i32>(dq + (<usize>tail << 2), next);
        tail++;
        next++;
      }
      while (load<i32>(dq + (<usize>head << 2)) < j) head++;
      const p = load<f32>(pk + (<usize>load<i32>(dq + (<usize>head << 2)) << 2));
      const need: f32 = p > ceiling ? ceiling / p : 1.0;
      g = need < g ? need : g + (need - g) * rel;
      const slot = ring + (<usize>pos << 2);
      sum += <f64>g - <f64>load<f32>(slot);
      store<f32>(slot, g);
      pos = (pos + 1) & (LOOKAHEAD - 1);
      const a = <f32>(sum * inv);
      low = Mathf.min(low, a);
      const o = <usize>j << 2;
      store<f32>(l + o, Mathf.min(Mathf.max(load<f32>(sl + o) * a, -1.0), 1.0));
      store<f32>(r + o, Mathf.min(Mathf.max(load<f32>(sr + o) * a, -1.0), 1.0));
    }
    // Fully released (within 1e-6, inaudible): snap to exactly 1 so passthrough can resume.
    if (1.0 - g < 1e-6) g = 1.0;
    this.gain = g;
    this.ringPos = pos;
    this.minGain = low;
    let all = g == 1.0;
    for (let i = 0; all && i < LOOKAHEAD; i++) all = load<f32>(ring + (<usize>i << 2)) == 1.0;
    this.released = all;
  }
}
