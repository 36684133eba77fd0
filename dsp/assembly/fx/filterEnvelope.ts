// Filter Envelope: a low-pass that opens and closes `value` times a second (0.1-10 Hz). Each
// cycle is an envelope: a raised-cosine attack over the first 10% of the cycle, then an
// exponential decay (4 time constants) that reaches exactly 0 at the cycle's end, so the shape is
// continuous from cycle to cycle. The envelope moves the cutoff exponentially from 120 Hz to
// 120 * 2^6 = 7.68 kHz through the trapezoidal SVF (lib/space-svf), Q 1.2 (a light edge).

import { Effect } from "./effect";
import { Smoothed, blockCoef } from "../lib/smooth";
import { StereoSvf, svfG } from "../lib/space-svf";
import { cos2pi, exp2 } from "../lib/space-util";

export const ENV_LOW_HZ: f64 = 120.0;
export const ENV_OCTAVES: f64 = 6.0;
const ENV_ATTACK: f64 = 0.1;
const ENV_DECAY_K: f64 = 4.0;
const ENV_K: f32 = 1.0 / 1.2;
const LOG2E: f64 = 1.4426950408889634;
const ENV_FLOOR: f64 = 0.01831563888873418; // e^-4

/** Envelope value (0..1) at cycle phase ph in [0, 1). */
function envelope(ph: f64): f64 {
  if (ph < ENV_ATTACK) return 0.5 - 0.5 * cos2pi(0.5 * ph / ENV_ATTACK);
  const x = (ph - ENV_ATTACK) / (1.0 - ENV_ATTACK);
  return (exp2(-ENV_DECAY_K * LOG2E * x) - ENV_FLOOR) / (1.0 - ENV_FLOOR);
}

export class FilterEnvelope extends Effect {
  svf: StereoSvf = new StereoSvf();
  rate: Smoothed = new Smoothed();
  phase: f64 = 0.0;
  coef: f32 = 0.1;

  init(fs: f64): void {
    super.init(fs);
    this.coef = blockCoef(fs);
  }

  set(value: f32, e1: f32, e2: f32, e3: f32): void {
    super.set(value, e1, e2, e3);
    this.rate.target = Mathf.max(value, 0.0);
  }

  cutoffG(ph: f64): f32 {
    return svfG(ENV_LOW_HZ * exp2(ENV_OCTAVES * envelope(ph)), this.fs);
  }

  reset(): void {
    this.rate.jump(this.rate.target);
    this.phase = 0.0;
    this.svf.reset(this.cutoffG(0.0));
  }

  process(l: usize, r: usize, n: i32): void {
    const r0 = <f64>this.rate.value;
    const r1 = <f64>this.rate.step(this.coef);
    let ph = this.phase + (r0 + r1) * 0.5 * <f64>n / this.fs;
    ph -= Math.floor(ph);
    this.phase = ph;
    this.svf.lowpass(l, r, n, this.cutoffG(ph), ENV_K, 1.0);
  }
}
