// Stereo-linked feed-forward compressor (the master stage), also applying the master gain.
//
// Design after Giannoulis, Massberg & Reiss, "Digital Dynamic Range Compressor Design - A
// Tutorial and Analysis" (JAES 2012), in its "smooth level detector, then static curve" form,
// with a power (mean-square) detector so that a steady tone gets a steady gain:
//
// - Detector: every sample is squared (the mean of L^2 and R^2: linked stereo) and that power is
//   smoothed by three cascaded one-pole low-passes (DETECT_SECONDS each). The square of a
//   band-limited signal holds only sum and difference frequencies, so the smoothed power does not
//   depend on where the samples fall on the waveform. A sampled peak does: the detector this
//   replaced took the largest |x| of every 4 samples, which ripples at an alias of the tone and
//   modulated the gain (a 5 kHz sawtooth had a component at 4.5 kHz only 82 dB down, a 133 Hz one
//   at -62 dB). The smoother is run exactly, four samples per step in state-space form (its
//   state after four samples is a fixed linear map of the state and the four squares: seven
//   columns, SIMD, no per-sample recursion).
// - Level: sqrt(2 * power), which is a sine's peak, so steady sine tones above ~300 Hz compress
//   as under a peak detector. Signals with a higher crest factor (noise, chords) read lower than
//   their peaks, as in any RMS compressor; below ~100 Hz the detector follows the power within
//   each cycle and reads up to 3 dB high (a 20 Hz sine comes out 1.9 dB quieter than under the
//   old peak detector; the default patch 0.4 dB louder).
// - Follower: attack 3 ms / release 250 ms (spec 9) on the power, every 4 samples (the smoothed
//   power has nothing left above 6 kHz that could fold).
// - Gain computer: the soft-knee curve (log/exp) every CONTROL samples, the gain interpolated
//   linearly in between: 32 samples (0.67 ms at 48 kHz) is 4.5 times finer than the attack.
//
// Measured on a 65536-point 7-term Blackman-Harris spectrum (tests/unit/dsp/assembly/master.test.ts):
// every non-harmonic component of a tone from 20 Hz to 20 kHz, any waveform, stays at least
// 90 dB below it (above 1 kHz more than 120 dB); the oscillators' own floor for low sawtooth and
// square tones is about -92 dB.

import {
  COMP_ATTACK, COMP_KNEE_DB, COMP_RATIO, COMP_RELEASE, COMP_THRESHOLD_DB,
} from "./constants";
import { fastExp2, fastLog2 } from "./math";

const DB_PER_LOG2: f32 = 6.020599913279624; // 20 * log10(2)
/** Samples between two evaluations of the gain computer. */
const CONTROL: i32 = 32;
/** Time constant of each of the detector's three one-pole smoothers. */
const DETECT_SECONDS: f64 = 0.001;

export class Compressor {
  enabled: bool = true;
  /** The clamp at the end of the stage: 1 (the final clamp) unless the true-peak limiter follows,
   *  which needs to see the overs it removes and clamps after itself. */
  ceiling: f32 = 1.0;
  env: f32 = 0.0;  // attack/release-followed power (linear)
  gain: f32 = 1.0; // gain applied at the end of the last control period
  attack4: f32 = 0.0;  // attack coefficient for a 4-sample step
  release4: f32 = 0.0; // release coefficient for a 4-sample step
  kneeStart: f32 = 0.0; // linear level where the knee begins: below it the gain is 1
  /** Smoother state (lanes 0-2: the three stages, lane 3 unused). */
  state: v128 = f32x4.splat(0.0);
  /** The smoother's exact 4-sample step: state' = sum_j S_j state_j + sum_k P_k x_k, as seven
   *  columns S0..S2, P0..P3 (v128 each). */
  cols: StaticArray<f32> = new StaticArray<f32>(7 * 4);

  init(fs: f64): void {
    this.attack4 = <f32>Math.exp(-4.0 / (COMP_ATTACK * fs));
    this.release4 = <f32>Math.exp(-4.0 / (COMP_RELEASE * fs));
    this.kneeStart = <f32>Math.pow(10.0, (<f64>COMP_THRESHOLD_DB - <f64>COMP_KNEE_DB / 2.0) / 20.0);
    // One sample of the cascade (each stage reads the stage before it after its update):
    //   s1' = s1 + c (x - s1);  s2' = s2 + c (s1' - s2);  s3' = s3 + c (s2' - s3).
    // Column j is where four samples take the unit input j (state 0-2, then samples 0-3).
    const c = 1.0 - Math.exp(-1.0 / (DETECT_SECONDS * fs));
    const w = changetype<usize>(this.cols);
    for (let j = 0; j < 7; j++) {
      let a1 = j == 0 ? 1.0 : 0.0, a2 = j == 1 ? 1.0 : 0.0, a3 = j == 2 ? 1.0 : 0.0;
      for (let k = 0; k < 4; k++) {
        const x = j == 3 + k ? 1.0 : 0.0;
        a1 += (x - a1) * c;
        a2 += (a1 - a2) * c;
        a3 += (a2 - a3) * c;
      }
      store<f32>(w + (<usize>j << 4), <f32>a1);
      store<f32>(w + (<usize>j << 4) + 4, <f32>a2);
      store<f32>(w + (<usize>j << 4) + 8, <f32>a3);
      store<f32>(w + (<usize>j << 4) + 12, 0.0);
    }
  }

  reset(): void {
    this.env = 0.0;
    this.gain = 1.0;
    this.state = f32x4.splat(0.0);
  }

  /** Static soft-knee curve: the linear gain for a level x. */
  @inline curve(x: f32): f32 {
    if (x <= this.kneeStart) return 1.0;
    const T = COMP_THRESHOLD_DB;
    const W = COMP_KNEE_DB;
    const slope: f32 = 1.0 / COMP_RATIO - 1.0; // negative
    const over = fastLog2(x) * DB_PER_LOG2 - T;
    let gdb: f32;
    if (over * 2.0 > W) {
      gdb = over * slope;
    } else {
      const k = over + W * 0.5;
      gdb = slope * k * k / (2.0 * W);
    }
    return fastExp2(gdb / DB_PER_LOG2);
  }

  /** Applies master gain (ramping m0 -> m1 over the block), compression and the final clamp to
   *  [-1, 1], in place, in one pass. The gain moves towards the curve's value for the level
   *  measured up to the previous control point (a 32-sample control delay, 0.67 ms).
   *  n must be a multiple of CONTROL (the engine's BLOCK is). */
  process(l: usize, r: usize, n: i32, m0: f32, m1: f32): void {
    this.run(l, r, n, m0, m1, true);
  }

  /** The same for a mono block (L == R): reads l only and writes the result to l and r. The
   *  detector sees the level the stereo version would, so the output is identical. */
  processMono(l: usize, r: usize, n: i32, m0: f32, m1: f32): void {
    this.run(l, r, n, m0, m1, false);
  }

  // Inlined with a constant `stereo`, so each entry point compiles to its own branch-free loop.
  @inline private run(l: usize, r: usize, n: i32, m0: f32, m1: f32, stereo: bool): void {
    const mStep = (m1 - m0) / <f32>n;
    const on = this.enabled;
    const att = this.attack4;
    const rel = this.release4;
    const lo = f32x4.splat(-this.ceiling);
    const hi = f32x4.splat(this.ceiling);
    const half = f32x4.splat(0.5);
    const mInc = f32x4.splat(4.0 * mStep);
    const cw = changetype<usize>(this.cols);
    const S0 = v128.load(cw), S1 = v128.load(cw, 16), S2 = v128.load(cw, 32);
    const P0 = v128.load(cw, 48), P1 = v128.load(cw, 64), P2 = v128.load(cw, 80), P3 = v128.load(cw, 96);
    let mv = f32x4(m0, m0 + mStep, m0 + 2.0 * mStep, m0 + 3.0 * mStep);
    let env = this.env;
    let g = this.gain;
    let st = this.state;
    for (let base = 0; base < n; base += CONTROL) {
      const gNext = on ? this.curve(Mathf.sqrt(2.0 * env)) : <f32>1.0;
      const gStep = (gNext - g) / <f32>CONTROL;
      let gv = f32x4(g, g + gStep, g + 2.0 * gStep, g + 3.0 * gStep);
      const gInc = f32x4.splat(4.0 * gStep);
      for (let k = 0; k < CONTROL; k += 4) {
        const o = <usize>(base + k) << 2;
        const a = f32x4.mul(v128.load(l + o), mv);
        const b = stereo ? f32x4.mul(v128.load(r + o), mv) : a;
        const p = stereo ? f32x4.mul(f32x4.add(f32x4.mul(a, a), f32x4.mul(b, b)), half) : f32x4.mul(a, a);
        const fromX = f32x4.add(
          f32x4.add(f32x4.mul(P0, v128.shuffle<f32>(p, p, 0, 0, 0, 0)), f32x4.mul(P1, v128.shuffle<f32>(p, p, 1, 1, 1, 1))),
          f32x4.add(f32x4.mul(P2, v128.shuffle<f32>(p, p, 2, 2, 2, 2)), f32x4.mul(P3, v128.shuffle<f32>(p, p, 3, 3, 3, 3))),
        );
        st = f32x4.add(
          f32x4.add(f32x4.mul(S0, v128.shuffle<f32>(st, st, 0, 0, 0, 0)), f32x4.mul(S1, v128.shuffle<f32>(st, st, 1, 1, 1, 1))),
          f32x4.add(f32x4.mul(S2, v128.shuffle<f32>(st, st, 2, 2, 2, 2)), fromX),
        );
        const pw = f32x4.extract_lane(st, 2);
        env = pw + (env - pw) * (pw > env ? att : rel);
        const y = f32x4.pmin(f32x4.pmax(f32x4.mul(a, gv), lo), hi);
        v128.store(l + o, y);
        v128.store(r + o, stereo ? f32x4.pmin(f32x4.pmax(f32x4.mul(b, gv), lo), hi) : y);
        gv = f32x4.add(gv, gInc);
        mv = f32x4.add(mv, mInc);
      }
      g = gNext;
      if (env < 1e-18) env = 0.0; // no denormals after long silence
      if (f32x4.extract_lane(st, 0) < 1e-30 && f32x4.extract_lane(st, 2) < 1e-30) st = f32x4.splat(0.0);
    }
    this.env = env;
    this.gain = g;
    this.state = st;
  }
}
