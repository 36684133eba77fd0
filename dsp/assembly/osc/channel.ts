// One studio channel: a band-limited wavetable oscillator with a 64-bit phase accumulator,
// a smoothed frequency (linear glide over SMOOTH_SECONDS) and a smoothed gain.
//
// Phase is a u64 fraction of a cycle: the increment is round(f / fs * 2^64), so the frequency
// error is below 1e-15 Hz and a 12-hour render is within 1e-9 cycles of exact. Wrapping is the
// integer overflow itself, and jumping n frames ahead is the exact product inc * n.

import { TABLE_BITS, tableFor, WAVE_SINE } from "./wavetable";

const TWO64: f64 = 18446744073709551616.0;
const FRAC_SHIFT: u64 = <u64>(64 - TABLE_BITS - 32); // bits below the 32-bit interpolation fraction
const INV_2_32: f32 = 1.0 / 4294967296.0;

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

  /** Adds n samples of this channel to dst. The gain moves one smoothing step (coef) per block
   *  and ramps linearly inside it; scale0 and scale1 are the mixer scale at block start and end. */
  render(dst: usize, n: i32, scale0: f32, scale1: f32, coef: f32): void {
    let gainNext = this.gain + (this.gainTarget - this.gain) * coef;
    if (Mathf.abs(this.gainTarget - gainNext) < 1e-5) gainNext = this.gainTarget;
    const g0 = this.gain * scale0;
    const g1 = gainNext * scale1;
    this.gain = gainNext;
    if (g0 == 0.0 && g1 == 0.0) {
      // Silent: keep the clock running so phase stays continuous and exact.
      this.advanceSilently(n);
      return;
    }
    const gStep = (g1 - g0) / <f32>n;
    // The table for the highest pitch in this block; a change of table (pitch crossing a
    // harmonic budget, or a new waveform) crossfades over the block instead of jumping.
    const want = tableFor(this.waveform, this.glideLeft > 0 ? Math.max(this.inc, this.incTarget) : this.inc);
    const from = this.table == 0 ? want : this.table;
    this.table = want;
    let phase = this.phase;
    let g = g0;
    if (this.glideLeft == 0 && from == want) {
      const inc = this.incFixed;
      for (let i = 0; i < n; i++) {
        const idx = <usize>(phase >>> (64 - TABLE_BITS));
        const frac = <f32>(<u32>(phase >>> FRAC_SHIFT)) * INV_2_32;
        const p = want + (idx << 2);
        const a = load<f32>(p);
        const b = load<f32>(p, 4);
        const ptr = dst + (<usize>i << 2);
        store<f32>(ptr, load<f32>(ptr) + (a + (b - a) * frac) * g);
        g += gStep;
        phase += inc;
      }
    } else if (from != want) {
      // New table: crossfade over this block at a steady pitch. A glide waits for it, so the
      // old (richer) table is never played at a higher pitch, where it would alias.
      const inc = this.glideLeft > 0 ? <u64>(this.inc * TWO64) : this.incFixed;
      const xStep: f32 = 1.0 / <f32>n;
      let x: f32 = 0.0;
      for (let i = 0; i < n; i++) {
        const idx = <usize>(phase >>> (64 - TABLE_BITS));
        const frac = <f32>(<u32>(phase >>> FRAC_SHIFT)) * INV_2_32;
        const p = from + (idx << 2);
        const q = want + (idx << 2);
        const a0 = load<f32>(p);
        const a = a0 + (load<f32>(p, 4) - a0) * frac;
        const b0 = load<f32>(q);
        const b = b0 + (load<f32>(q, 4) - b0) * frac;
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
        const idx = <usize>(phase >>> (64 - TABLE_BITS));
        const frac = <f32>(<u32>(phase >>> FRAC_SHIFT)) * INV_2_32;
        const p = want + (idx << 2);
        const a = load<f32>(p);
        const b = load<f32>(p, 4);
        const ptr = dst + (<usize>i << 2);
        store<f32>(ptr, load<f32>(ptr) + (a + (b - a) * frac) * g);
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
