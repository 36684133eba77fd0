// Acid Filter: a resonant low-pass (Q 6) whose cutoff a sine LFO at `value` Hz (0.1-20) sweeps
// exponentially between 180 Hz and 180 * 2^4.5 = 4.07 kHz, the squelch of a 303-style line.
// The filter is the trapezoidal SVF in lib/filter/svf (cutoff updated every 16 frames, so even a
// 20 Hz sweep is smooth). The LFO starts at the bottom of the sweep on reset. Output gain 0.6
// keeps the resonant peak (x6 at the cutoff) near the dry level.

import { SweptLowpass } from "./sweptLowpass";
import { cos2pi, exp2 } from "../lib/math";

export const ACID_LOW_HZ: f64 = 180.0;
export const ACID_OCTAVES: f64 = 4.5;

export class AcidFilter extends SweptLowpass {
  k: f32 = 1.0 / 6.0;
  gain: f32 = 0.6;

  cutoffHz(ph: f64): f64 {
    const lfo = 0.5 - 0.5 * cos2pi(ph);
    return ACID_LOW_HZ * exp2(ACID_OCTAVES * lfo);
  }
}
