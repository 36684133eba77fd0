// Sine LFO for the modulation effects: its phase is kept in f64 (no drift over a 12-hour render)
// and converted to the u32 phase of lib/mod/table once per block.

import { TWO32 } from "./table";

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
