// Filter Envelope: a low-pass that opens and closes `value` times a second (0.1-10 Hz). Each
// cycle is an envelope: a raised-cosine attack over the first 10% of the cycle, then an
// exponential decay (4 time constants) that reaches exactly 0 at the cycle's end, so the shape is
// continuous from cycle to cycle. The envelope moves the cutoff exponentially from 120 Hz to
// 120 * 2^6 = 7.68 kHz through the trapezoidal SVF (lib/filter/svf), Q 1.2 (a light edge).

import { SweptLowpass } from "./sweptLowpass";
import { cos2pi, exp2 } from "../lib/math";

export const ENV_LOW_HZ: f64 = 120.0;
export const ENV_OCTAVES: f64 = 6.0;
const ENV_ATTACK: f64 = 0.1;
const ENV_DECAY_K: f64 = 4.0;
const LOG2E: f64 = 1.4426950408889634;
const ENV_FLOOR: f64 = 0.01831563888873418; // e^-4

/** Envelope value (0..1) at cycle phase ph in [0, 1). */
function envelope(ph: f64): f64 {
  if (ph < ENV_ATTACK) return 0.5 - 0.5 * cos2pi(0.5 * ph / ENV_ATTACK);
  const x = (ph - ENV_ATTACK) / (1.0 - ENV_ATTACK);
  return (exp2(-ENV_DECAY_K * LOG2E * x) - ENV_FLOOR) / (1.0 - ENV_FLOOR);
}

export class FilterEnvelope extends SweptLowpass {
  k: f32 = 1.0 / 1.2;

  cutoffHz(ph: f64): f64 {
    return ENV_LOW_HZ * exp2(ENV_OCTAVES * envelope(ph));
  }
}
