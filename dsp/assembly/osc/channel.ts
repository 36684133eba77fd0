// One studio channel: a band-limited wavetable oscillator with a 64-bit phase accumulator,
// a smoothed frequency (linear glide over SMOOTH_SECONDS) and a smoothed gain.
//
// Phase is a u64 fraction of a cycle: the increment is round(f / fs * 2^64), so the frequency
// error is below 1e-15 Hz and a 12-hour render is within 1e-9 cycles of exact. Wrapping is the
// integer overflow itself, and jumping n frames ahead is the exact product inc * n.

import { TABLE_BITS, tableFor, WAVE_SINE } from "./wavetable";
import { BLOCK } from "../lib/constants";

const TWO64: f64 = 18446744073709551616.0;
const FRAC_SHIFT: u64 = <u64>(64 - TABLE_BITS - 32); // bits below the 32-bit interpolation fraction
const INV_2_32: f32 = 1.0 / 4294967296.0;

export const SILENT: i32 = 0;
export const STEADY: i32 = 1;
export const SPECIAL: i32 = 2;
/** Following the session timeline inside the block (renderAutomated; pieces set by timeline.ts). */
export const AUTOMATED: i32 = 3;

/** Linearly interpolated table read at a u64 phase: top TABLE_BITS bits index, next 32 interpolate. */
// @ts-ignore: decorator
@inline
export function lookup(table: usize, phase: u64): f32 {
  const p = table + (<usize>(phase >>> (64 - TABLE_BITS)) << 2);
  const frac = <f32>(<u32>(phase >>> FRAC_SHIFT)) * INV_2_32;
  const a = load<f32>(p);
  return a + (load<f32>(p, 4) - a) * frac;
}

export class Channel {
  // Target state, set from the host.
  freq: f64 = 0.0;
  waveform: i32 = WAVE_SINE;
  enabled: bool = false;
  volume: f32 = 1.0;

  // Running state.
  phase: u64 = 0;
  inc: f64 = 0.0;          // current increment, cycles per sample
  incTarget: f64 = 0.0;
  incStep: f64 = 0.0;
  glideLeft: i32 = 0;      // samples left in the frequency glide
  incFixed: u64 = 0;       // integer increment when not gliding
  gain: f32 = 0.0;         // current gain (including the active flag)
  gainTarget: f32 = 0.0;
  table: usize = 0;        // wavetable in use (0 = none yet)

  /** True when this channel sounds: enabled with a frequency above 0 Hz. */
  @inline get active(): bool {
    return this.enabled && this.freq > 0.0;
  }

  /** Applies new targets. glideFrames is 0 while stopped (jump) or the smoothing length. */
  set(freq: f64, waveform: i32, enabled: bool, volume: f32, fs: f64, glideFrames: i32): void {
    const wasActive = this.active;
    this.freq = freq;
    this.waveform = waveform;
    this.enabled = enabled;
    this.volume = volume;
    this.gainTarget = this.active ? volume : 0.0;
    if (freq <= 0.0) return; // 0 Hz: fade out at the old pitch instead of gliding to DC
    const target = freq / fs;
    this.incTarget = target;
    if (!wasActive || glideFrames <= 0 || this.gain == 0.0) {
      // Silent before: take the new pitch at once (the gain fade-in hides the start).
      this.inc = target;
      this.glideLeft = 0;
      this.incFixed = <u64>(target * TWO64);
    } else if (target != this.inc || this.glideLeft > 0) {
      this.glideLeft = glideFrames;
      this.incStep = (target - this.inc) / <f64>glideFrames;
    }
  }

  /** Restarts from phase 0 with no glide and the gain at its target (used on start). */
  reset(): void {
    this.phase = 0;
    if (this.incTarget > 0.0) {
      this.inc = this.incTarget;
      this.incFixed = <u64>(this.incTarget * TWO64);
    }
    this.glideLeft = 0;
    this.gain = this.gainTarget;
    this.table = 0;
  }

  /** Jumps n frames ahead without rendering (exact for a steady pitch). */
  advance(frames: u64): void {
    this.phase += this.incFixed * frames;
  }

  // Per-block values set by begin().
  g: f32 = 0.0;      // gain (times mixer scale) at the block start
  gStep: f32 = 0.0;  // per-sample gain change across the block
  from: usize = 0;   // table at the block start (differs from `table` while crossfading)
  sounding: bool = false; // this block adds sound (begin() did not return SILENT)

  /** Starts a block: moves the gain one smoothing step (coef) and picks the wavetable.
   *  Returns SILENT (the clock was advanced, nothing to add), STEADY (renderSteady or the
   *  engine's fused loop) or SPECIAL (renderSpecial: gliding or crossfading tables). */
  begin(n: i32, scale0: f32, scale1: f32, coef: f32): i32 {
    let gainNext = this.gain + (this.gainTarget - this.gain) * coef;
    if (Mathf.abs(this.gainTarget - gainNext) < 1e-5) gainNext = this.gainTarget;
    const g0 = this.gain * scale0;
    const g1 = gainNext * scale1;
    this.gain = gainNext;
    if (g0 == 0.0 && g1 == 0.0) {
      // Silent: keep the clock running so phase stays continuous and exact.
      this.advanceSilently(n);
      this.sounding = false;
      return SILENT;
    }
    this.sounding = true;
    this.g = g0;
    this.gStep = (g1 - g0) / <f32>n;
    // The table for the highest pitch in this block; a change of table (pitch crossing a
    // harmonic budget, or a new waveform) crossfades over the block instead of jumping.
    const want = tableFor(this.waveform, this.glideLeft > 0 ? Math.max(this.inc, this.incTarget) : this.inc);
    this.from = this.table == 0 ? want : this.table;
    this.table = want;
    return this.glideLeft == 0 && this.from == want ? STEADY : SPECIAL;
  }

  /** Adds a STEADY block to dst. */
  renderSteady(dst: usize, n: i32): void {
    const table = this.table;
    const inc = this.incFixed;
    const gStep = this.gStep;
    let phase = this.phase;
    let g = this.g;
    for (let i = 0; i < n; i++) {
      const ptr = dst + (<usize>i << 2);
      store<f32>(ptr, load<f32>(ptr) + lookup(table, phase) * g);
      g += gStep;
      phase += inc;
    }
    this.phase = phase;
  }

  /** Adds a SPECIAL block to dst. */
  renderSpecial(dst: usize, n: i32): void {
    const want = this.table;
    const from = this.from;
    const gStep = this.gStep;
    let phase = this.phase;
    let g = this.g;
    if (from != want) {
      // New table: crossfade over this block at a steady pitch. A glide waits for it, so the
      // old (richer) table is never played at a higher pitch, where it would alias.
      const inc = this.glideLeft > 0 ? <u64>(this.inc * TWO64) : this.incFixed;
      const xStep: f32 = 1.0 / <f32>n;
      let x: f32 = 0.0;
      for (let i = 0; i < n; i++) {
        const a = lookup(from, phase);
        const b = lookup(want, phase);
        x += xStep;
        const ptr = dst + (<usize>i << 2);
        store<f32>(ptr, load<f32>(ptr) + (a + (b - a) * x) * g);
        g += gStep;
        phase += inc;
      }
    } else {
      // Gliding: per-sample increment, one table (chosen for the higher end of the glide).
      let inc = this.inc;
      const step = this.incStep;
      let left = this.glideLeft;
      for (let i = 0; i < n; i++) {
        const ptr = dst + (<usize>i << 2);
        store<f32>(ptr, load<f32>(ptr) + lookup(want, phase) * g);
        g += gStep;
        if (left > 0) {
          inc += step;
          left--;
          if (left == 0) inc = this.incTarget;
        }
        phase += <u64>(inc * TWO64);
      }
      this.inc = inc;
      this.glideLeft = left;
      if (left == 0) this.incFixed = <u64>(this.incTarget * TWO64);
    }
    this.phase = phase;
  }

  // ---- timeline mode (dsp/assembly/timeline.ts plans each block) ----------------------------
  // A block is split into pieces; each has its length and the increment and gain (times the
  // mixer scale) at both ends, moved linearly across it.
  pLen: StaticArray<i32> = new StaticArray<i32>(BLOCK);
  pIncA: StaticArray<f64> = new StaticArray<f64>(BLOCK);
  pIncB: StaticArray<f64> = new StaticArray<f64>(BLOCK);
  pGA: StaticArray<f32> = new StaticArray<f32>(BLOCK);
  pGB: StaticArray<f32> = new StaticArray<f32>(BLOCK);
  pieces: i32 = 0;

  @inline setPiece(p: i32, len: i32, incA: f64, incB: f64, gA: f32, gB: f32): void {
    unchecked((this.pLen[p] = len));
    unchecked((this.pIncA[p] = incA));
    unchecked((this.pIncB[p] = incB));
    unchecked((this.pGA[p] = gA));
    unchecked((this.pGB[p] = gB));
  }

  /** A block in which the timeline holds this channel still at f Hz and level g (0..1). */
  timelineSteady(f: f64, inc: f64, g: f32, waveform: i32, n: i32, s0: f32, s1: f32): i32 {
    this.freq = f;
    this.waveform = waveform;
    this.enabled = g > 0.0;
    this.gain = g;
    this.gainTarget = g;
    this.glideLeft = 0;
    if (f > 0.0 && (inc != this.inc || this.incTarget != inc)) this.setInc(inc);
    const g0 = g * s0;
    const g1 = g * s1;
    if (g0 == 0.0 && g1 == 0.0) {
      this.phase += this.incFixed * <u64>n;
      this.sounding = false;
      return SILENT;
    }
    this.sounding = true;
    this.g = g0;
    this.gStep = (g1 - g0) / <f32>n;
    const want = tableFor(waveform, this.inc);
    this.from = this.table == 0 ? want : this.table;
    this.table = want;
    return this.from == want ? STEADY : SPECIAL;
  }

  /** A block in which the channel moves: the pieces are set. Returns false when it is silent
   *  throughout (the clock is then advanced here). */
  timelineAutomated(pieces: i32, fMid: f64, incEnd: f64, gEnd: f32, waveform: i32, maxInc: f64, maxG: f32, n: i32): bool {
    this.pieces = pieces;
    this.freq = fMid;
    this.waveform = waveform;
    this.enabled = maxG > 0.0;
    this.gain = gEnd;
    this.gainTarget = gEnd;
    this.glideLeft = 0;
    const first = unchecked(this.pGA[0]);
    const lastP = pieces - 1;
    this.g = first;
    this.gStep = (unchecked(this.pGB[lastP]) - first) / <f32>n;
    if (maxG == 0.0) {
      // Silent: run the clock through the pieces (the sum of a linear increment) and move on.
      let phase = this.phase;
      for (let p = 0; p < pieces; p++) {
        const len = unchecked(this.pLen[p]);
        const a = unchecked(this.pIncA[p]);
        const b = unchecked(this.pIncB[p]);
        phase += <u64>((a * <f64>len + (b - a) * <f64>(len - 1) * 0.5) * TWO64);
      }
      this.phase = phase;
      this.setInc(incEnd);
      this.sounding = false;
      return false;
    }
    this.sounding = true;
    const want = tableFor(waveform, maxInc);
    this.from = this.table == 0 ? want : this.table;
    this.table = want;
    this.setInc(incEnd);
    return true;
  }

  @inline private setInc(inc: f64): void {
    this.inc = inc;
    this.incTarget = inc;
    this.incFixed = <u64>(inc * TWO64);
  }

  /** Adds an AUTOMATED block to dst: per piece, the increment and gain move linearly; a change
   *  of table crossfades across the block. */
  renderAutomated(dst: usize, n: i32): void {
    const want = this.table;
    const from = this.from;
    const xStep: f32 = from != want ? 1.0 / <f32>n : 0.0;
    let x: f32 = from != want ? 0.0 : 1.0;
    let phase = this.phase;
    let i = 0;
    for (let p = 0; p < this.pieces; p++) {
      const len = unchecked(this.pLen[p]);
      // The increment in the phase's own fixed point, stepped by an integer: the same linear
      // ramp as in f64 (within 2^-64 cycles per sample) without a conversion per sample.
      const a = unchecked(this.pIncA[p]);
      let inc = <u64>(a * TWO64);
      const incStep = <i64>((unchecked(this.pIncB[p]) - a) * TWO64 / <f64>len);
      let g = unchecked(this.pGA[p]);
      const gStep = (unchecked(this.pGB[p]) - g) / <f32>len;
      for (let k = 0; k < len; k++) {
        const ptr = dst + (<usize>i << 2);
        let v = lookup(want, phase);
        if (xStep != 0.0) {
          const a = lookup(from, phase);
          x += xStep;
          v = a + (v - a) * x;
        }
        store<f32>(ptr, load<f32>(ptr) + v * g);
        phase += inc;
        inc += <u64>incStep;
        g += gStep;
        i++;
      }
    }
    this.phase = phase;
  }

  private advanceSilently(n: i32): void {
    if (this.glideLeft > 0) {
      // Finish the glide arithmetically so the pitch lands where it would have.
      const k = min(n, this.glideLeft);
      for (let i = 0; i < k; i++) {
        this.inc += this.incStep;
        this.phase += <u64>(this.inc * TWO64);
      }
      this.glideLeft -= k;
      if (this.glideLeft == 0) {
        this.inc = this.incTarget;
        this.incFixed = <u64>(this.incTarget * TWO64);
      }
      this.phase += this.incFixed * <u64>(n - k);
    } else {
      this.phase += this.incFixed * <u64>n;
    }
  }
}
