// Noise: seeded noise added under the tone at value/100 x 0.15 (spec 9), decorrelated between
// left and right (two generators with different seeds).
//
// Type (extra 1): 0 white (flat), 1 pink (-3 dB/octave, Paul Kellet's refined 7-pole filter,
// within 0.05 dB of the ideal slope above ~10 Hz), 2 brown (-6 dB/octave, a leaky integrator
// with its corner at 11 Hz). Each type is scaled to the white noise's RMS.
// Color (extra 2, -100..100): a tilt around 1 kHz (a one-pole split at 1 kHz; lows and highs
// weighted in opposite directions) of up to +/-6 dB, i.e. 12 dB between the lows and the highs:
// positive is brighter, negative darker, 0 leaves the type's spectrum untouched.
// Density (extra 3, 0..100): how many noise events per second. The generator is velvet noise
// (Valimaki et al., "Velvet noise", 2013): one impulse of random amplitude at a random position
// in each grid cell of fs/rate samples. The rate runs exponentially through 20/s (0, crackle),
// 2000/s (50, the density at which velvet noise sounds as smooth as continuous noise) and one per
// sample (100, plain white noise); impulses are scaled to keep the power of continuous noise
// (at most x5: exact down to 1920/s, so sparse crackle stays bounded). The impulses' random
// signs keep every density's spectrum exactly that of its type.

import { BROWN_LEAK, BROWN_SCALE, PINK_SCALE } from "../lib/noise-colours";
import { Effect } from "./effect";
import { Rng } from "../lib/rng";
import { blockCoef, Smoothed } from "../lib/smooth";
import { BLOCK, TONE_GAIN } from "../lib/constants";

const WHITE: i32 = 0;
const PINK: i32 = 1;
const BROWN: i32 = 2;
const MAX_IMPULSE: f32 = 5.0;

/** One channel's generator: velvet impulses -> type filter -> tilt. */
class NoiseVoice {
  rng: Rng = new Rng();
  next: f64 = 0.0;  // samples until the next impulse
  cellLeft: f64 = 0.0; // samples from that impulse to the end of its cell
  b0: f32 = 0.0; b1: f32 = 0.0; b2: f32 = 0.0; b3: f32 = 0.0; b4: f32 = 0.0; b5: f32 = 0.0; b6: f32 = 0.0;
  brown: f32 = 0.0;
  low: f32 = 0.0;

  reset(seed: u32): void {
    this.rng.seed(seed);
    this.next = 0.0;
    this.cellLeft = 0.0;
    this.b0 = 0.0; this.b1 = 0.0; this.b2 = 0.0; this.b3 = 0.0; this.b4 = 0.0; this.b5 = 0.0; this.b6 = 0.0;
    this.brown = 0.0;
    this.low = 0.0;
  }

  /** Adds n samples to p. cell = grid cell in samples (1 = continuous); amp = impulse scale;
   *  g0..g1 output gain ramp; lowG/highG tilt weights (both 1: no tilt); split = one-pole coef.
   *  Separate passes (excitation, type filter, tilt + gain) keep every loop branch-free. */
  render(p: usize, n: i32, w: usize, type: i32, cell: f64, amp: f32, g0: f32, g1: f32,
    lowG: f32, highG: f32, split: f32): void {
    const rng = this.rng;
    const gs = (g1 - g0) / <f32>n;
    if (cell > 1.0 && type == WHITE && lowG == 1.0 && highG == 1.0) {
      // Sparse white velvet noise, untilted (the default): only the impulses are visited, each
      // added straight into the output at the gain of its sample (g0 + (i + 1) gs, as the ramp
      // below), so nothing is done per sample at all.
      let next = this.next;
      while (next < <f64>n) {
        const k = <i32>next;
        const q = p + (<usize>k << 2);
        store<f32>(q, load<f32>(q) + rng.next() * amp * (g0 + <f32>(k + 1) * gs));
        const at = <f64>(rng.next() * 0.5 + 0.5) * cell;
        next += this.cellLeft + at;
        this.cellLeft = cell - at;
      }
      this.next = next - <f64>n;
      return;
    }
    if (cell <= 1.0) {
      for (let i = 0; i < n; i++) store<f32>(w + (<usize>i << 2), rng.next());
    } else {
      // Velvet noise: only the impulses are visited.
      memory.fill(w, 0, <usize>n << 2);
      let next = this.next;
      while (next < <f64>n) {
        const q = w + (<usize><i32>next << 2);
        store<f32>(q, load<f32>(q) + rng.next() * amp);
        // Next impulse: the rest of this cell, then a random place in the next one.
        const at = <f64>(rng.next() * 0.5 + 0.5) * cell;
        next += this.cellLeft + at;
        this.cellLeft = cell - at;
      }
      this.next = next - <f64>n;
    }
    if (type == PINK) {
      // Paul Kellet's refined pink filter (musicdsp.org, "Filter to make pink noise").
      let b0 = this.b0, b1 = this.b1, b2 = this.b2, b3 = this.b3, b4 = this.b4, b5 = this.b5, b6 = this.b6;
      for (let i = 0; i < n; i++) {
        const q = w + (<usize>i << 2);
        const x = load<f32>(q);
        b0 = 0.99886 * b0 + x * 0.0555179;
        b1 = 0.99332 * b1 + x * 0.0750759;
        b2 = 0.969 * b2 + x * 0.153852;
        b3 = 0.8665 * b3 + x * 0.3104856;
        b4 = 0.55 * b4 + x * 0.5329522;
        b5 = -0.7616 * b5 - x * 0.016898;
        store<f32>(q, (b0 + b1 + b2 + b3 + b4 + b5 + b6 + x * 0.5362) * PINK_SCALE);
        b6 = x * 0.115926;
      }
      // No denormal tails (sparse impulses leave the filters ringing down for a long time).
      this.b0 = flush(b0); this.b1 = flush(b1); this.b2 = flush(b2); this.b3 = flush(b3);
      this.b4 = flush(b4); this.b5 = flush(b5); this.b6 = flush(b6);
    } else if (type == BROWN) {
      let y = this.brown;
      for (let i = 0; i < n; i++) {
        const q = w + (<usize>i << 2);
        y = BROWN_LEAK * y + load<f32>(q);
        store<f32>(q, y * BROWN_SCALE);
      }
      this.brown = flush(y);
    }
    let g = g0;
    if (lowG != 1.0 || highG != 1.0) {
      let low = this.low;
      for (let i = 0; i < n; i++) {
        g += gs;
        const o = <usize>i << 2;
        const y = load<f32>(w + o);
        low += (y - low) * split;
        store<f32>(p + o, load<f32>(p + o) + (low * lowG + (y - low) * highG) * g);
      }
      this.low = flush(low);
    } else {
      // Four samples per v128 step (n is a multiple of 4: the engine's block, BLOCK, is 256).
      let gv = f32x4.add(f32x4.splat(g0), f32x4.mul(f32x4(1.0, 2.0, 3.0, 4.0), f32x4.splat(gs)));
      const g4 = f32x4.splat(4.0 * gs);
      for (let i = 0; i < n; i += 4) {
        const o = <usize>i << 2;
        v128.store(p + o, f32x4.add(v128.load(p + o), f32x4.mul(v128.load(w + o), gv)));
        gv = f32x4.add(gv, g4);
      }
    }
  }
}

// @ts-ignore: decorator
@inline
function flush(x: f32): f32 {
  return Mathf.abs(x) < 1e-20 ? 0.0 : x;
}

export class Noise extends Effect {
  left: NoiseVoice = new NoiseVoice();
  right: NoiseVoice = new NoiseVoice();
  gain: Smoothed = new Smoothed();
  tilt: Smoothed = new Smoothed();   // color, -1..1
  density: Smoothed = new Smoothed(); // 0..100
  type: i32 = WHITE;
  split: f32 = 0.0;
  coef: f32 = 0.0;
  scratch: StaticArray<f32> = new StaticArray<f32>(BLOCK);
  lastD: f64 = -1.0;     // density and color the cached values below were made for
  lastTilt: f32 = NaN;
  cell: f64 = 1.0;
  amp: f32 = 1.0;
  highG: f32 = 1.0;

  init(fs: f64): void {
    super.init(fs);
    this.coef = blockCoef(fs);
    this.split = <f32>(1.0 - Math.exp(-2.0 * Math.PI * 1000.0 / fs));
  }

  set(value: f32, e1: f32, e2: f32, e3: f32): void {
    super.set(value, e1, e2, e3);
    this.gain.target = Mathf.min(Mathf.max(value, 0.0), 100.0) * 0.01 * TONE_GAIN;
    const t = <i32>Mathf.round(e1);
    this.type = t < WHITE || t > BROWN ? WHITE : t;
    this.tilt.target = Mathf.min(Mathf.max(e2, -100.0), 100.0) * 0.01;
    this.density.target = Mathf.min(Mathf.max(e3, 0.0), 100.0);
  }

  reset(): void {
    this.left.reset(0x1234567);
    this.right.reset(0x89abcdf);
    this.gain.jump(this.gain.target);
    this.tilt.jump(this.tilt.target);
    this.density.jump(this.density.target);
  }

  process(l: usize, r: usize, n: i32): void {
    const g0 = this.gain.value;
    const g1 = this.gain.step(this.coef);
    const tilt = this.tilt.step(this.coef);
    const d = <f64>this.density.step(this.coef);
    // Impulses per second: 20 at 0, 2000 at 50, fs at 100, exponential in between. The powers
    // are recomputed only when the smoothed density or color moved (not in steady blocks).
    if (d != this.lastD) {
      this.lastD = d;
      const rate = d <= 50.0
        ? 20.0 * Math.pow(100.0, d / 50.0)
        : 2000.0 * Math.pow(this.fs / 2000.0, (d - 50.0) / 50.0);
      this.cell = Math.max(1.0, this.fs / rate);
      this.amp = <f32>Math.min(Math.sqrt(this.cell), <f64>MAX_IMPULSE);
    }
    if (tilt != this.lastTilt) {
      this.lastTilt = tilt;
      // +/-6 dB at the extremes: highs up and lows down by the same factor.
      this.highG = <f32>Math.pow(10.0, <f64>tilt * 6.0 / 20.0);
    }
    const cell = this.cell, amp = this.amp;
    const highG = this.highG;
    const lowG: f32 = 1.0 / highG;
    if (g0 == 0.0 && g1 == 0.0) return;
    const w = changetype<usize>(this.scratch);
    this.left.render(l, n, w, this.type, cell, amp, g0, g1, lowG, highG, this.split);
    this.right.render(r, n, w, this.type, cell, amp, g0, g1, lowG, highG, this.split);
  }
}
