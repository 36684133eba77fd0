// Vocoder: a 16-band channel vocoder whose carrier is the channel mix (the block arriving here)
// and whose modulator is a built-in synthetic voice that keeps saying the vowels a-e-i-o-u,
// 2.5 vowels per second, gliding between them, with a gentle syllable dip in loudness.
//
// Carrier: 16 constant-peak band-pass filters (RBJ cookbook), log-spaced 120 Hz - 8 kHz
// (0.4 octave apart, Q 3.6), run four bands per v128 lane group; each band is weighted by the
// modulator's envelope in that band and the bands are summed.
// Modulator: the voice's spectral envelope is known in closed form, so instead of rendering it
// and envelope-following each band, its band envelopes are evaluated directly every block: three
// formant peaks (Peterson & Barney 1952, adult male F1-F3; amplitudes 1, 0.6, 0.35) of half an
// octave width in log frequency, over a floor of -34 dB, normalised so the loudest band is 1, times
// the syllable envelope. This is what an ideal analysis of that voice would give, without the
// analysis noise and at half the cost.
// Value: wet mix in % (0 dry, 100 fully vocoded). The wet path is faded out when no channel
// sounds (the effect is "torn down"), and follows the channels because the carrier is their mix.

import { Effect } from "./effect";
import { activeChannelCount } from "../bus";
import { blockCoef, Smoothed } from "../lib/smooth";

const BANDS: i32 = 16;
const GROUPS: i32 = 4;
const LOW_HZ: f64 = 120.0;
const HIGH_HZ: f64 = 8000.0;
const Q: f64 = 3.6;
const VOWEL_SECONDS: f64 = 0.4;
const GLIDE: f64 = 0.35;        // last 35% of each vowel glides into the next
const FORMANT_WIDTH: f64 = 0.25; // half-width (octaves) of a formant peak
const FLOOR: f64 = 0.02;

// a, e, i, o, u: F1, F2, F3 in Hz (Peterson & Barney 1952, men).
const VOWELS: StaticArray<f64> = [
  730.0, 1090.0, 2440.0,
  530.0, 1840.0, 2480.0,
  270.0, 2290.0, 3010.0,
  570.0, 840.0, 2410.0,
  300.0, 870.0, 2240.0,
];
const VOWEL_COUNT: i32 = 5;
const AMPS: StaticArray<f64> = [1.0, 0.6, 0.35];

export class Vocoder extends Effect {
  // Band-pass coefficients (b1 = 0, b2 = -b0) and states, 4 bands per v128, 4 groups.
  b0: StaticArray<f32> = new StaticArray<f32>(BANDS);
  a1: StaticArray<f32> = new StaticArray<f32>(BANDS);
  a2: StaticArray<f32> = new StaticArray<f32>(BANDS);
  zl: StaticArray<f32> = new StaticArray<f32>(BANDS * 2); // -z1/b0 then -z2/b0, left
  zr: StaticArray<f32> = new StaticArray<f32>(BANDS * 2);
  logHz: StaticArray<f64> = new StaticArray<f64>(BANDS);
  logF: StaticArray<f64> = new StaticArray<f64>(VOWEL_COUNT * 3); // log2 of VOWELS (init)
  env: StaticArray<f32> = new StaticArray<f32>(BANDS);    // band gains at the block start
  envNext: StaticArray<f32> = new StaticArray<f32>(BANDS);
  time: f64 = 0.0;   // seconds into the vowel cycle
  mix: Smoothed = new Smoothed();
  live: Smoothed = new Smoothed(); // 1 while a channel sounds
  norm: f32 = 1.0;
  coef: f32 = 0.0;

  init(fs: f64): void {
    super.init(fs);
    this.coef = blockCoef(fs);
    for (let i = 0; i < VOWEL_COUNT * 3; i++) this.logF[i] = Math.log2(VOWELS[i]);
    const ratio = Math.pow(HIGH_HZ / LOW_HZ, 1.0 / <f64>(BANDS - 1));
    for (let k = 0; k < BANDS; k++) {
      const f = LOW_HZ * Math.pow(ratio, <f64>k);
      this.logHz[k] = Math.log2(f);
      const w0 = 2.0 * Math.PI * f / fs;
      const alpha = Math.sin(w0) / (2.0 * Q);
      const a0 = 1.0 + alpha;
      this.b0[k] = <f32>(alpha / a0);
      this.a1[k] = <f32>(-2.0 * Math.cos(w0) / a0);
      this.a2[k] = <f32>((1.0 - alpha) / a0);
    }
    // Output normalisation: the mean magnitude of the summed bank (all gains 1) over the bank's
    // range, measured at 64 log-spaced frequencies, is taken to unity.
    let sum = 0.0;
    for (let m = 0; m < 64; m++) {
      const f = LOW_HZ * Math.pow(HIGH_HZ / LOW_HZ, (<f64>m + 0.5) / 64.0);
      const w = 2.0 * Math.PI * f / fs;
      let re = 0.0, im = 0.0;
      for (let k = 0; k < BANDS; k++) {
        // H = b0 (1 - z^-2) / (1 + a1 z^-1 + a2 z^-2)
        const b = <f64>this.b0[k], c1 = <f64>this.a1[k], c2 = <f64>this.a2[k];
        const nr = b * (1.0 - Math.cos(2.0 * w)), ni = b * Math.sin(2.0 * w);
        const dr = 1.0 + c1 * Math.cos(w) + c2 * Math.cos(2.0 * w);
        const di = -c1 * Math.sin(w) - c2 * Math.sin(2.0 * w);
        const dd = dr * dr + di * di;
        re += (nr * dr + ni * di) / dd;
        im += (ni * dr - nr * di) / dd;
      }
      sum += Math.sqrt(re * re + im * im);
    }
    this.norm = <f32>(64.0 / sum);
  }

  set(value: f32, e1: f32, e2: f32, e3: f32): void {
    super.set(value, e1, e2, e3);
    this.mix.target = Mathf.min(Mathf.max(value, 0.0), 100.0) * 0.01;
  }

  reset(): void {
    memory.fill(changetype<usize>(this.zl), 0, <usize>(BANDS * 2) << 2);
    memory.fill(changetype<usize>(this.zr), 0, <usize>(BANDS * 2) << 2);
    this.time = 0.0;
    this.mix.jump(this.mix.target);
    this.live.jump(activeChannelCount() > 0 ? 1.0 : 0.0);
    this.envelopes(this.env);
  }

  /** The modulator's band envelopes at the current time. */
  envelopes(out: StaticArray<f32>): void {
    const cycle = VOWEL_SECONDS * <f64>VOWEL_COUNT;
    const t = this.time / VOWEL_SECONDS;
    const v = <i32>Math.floor(t) % VOWEL_COUNT;
    const u = t - Math.floor(t); // position within the vowel
    const w = v + 1 == VOWEL_COUNT ? 0 : v + 1;
    // Glide (smoothstep, in log frequency) into the next vowel over the vowel's last part.
    let x = Math.max(0.0, (u - (1.0 - GLIDE)) / GLIDE);
    x = x * x * (3.0 - 2.0 * x);
    // Syllable envelope: full in the vowel's middle, dipping to 0.6 at the joins.
    const syl = 0.8 - 0.2 * Math.cos(2.0 * Math.PI * u);
    // Formant centres (log2 Hz) for this block: three per vowel pair, hoisted out of the bands.
    const L = this.logF;
    const fa0 = unchecked(L[v * 3]), fa1 = unchecked(L[v * 3 + 1]), fa2 = unchecked(L[v * 3 + 2]);
    const c0 = fa0 + (unchecked(L[w * 3]) - fa0) * x;
    const c1 = fa1 + (unchecked(L[w * 3 + 1]) - fa1) * x;
    const c2 = fa2 + (unchecked(L[w * 3 + 2]) - fa2) * x;
    const iw = 1.0 / FORMANT_WIDTH;
    const A0 = unchecked(AMPS[0]), A1 = unchecked(AMPS[1]), A2 = unchecked(AMPS[2]);
    let peak = 0.0;
    for (let k = 0; k < BANDS; k++) {
      const lh = unchecked(this.logHz[k]);
      const d0 = (lh - c0) * iw, d1 = (lh - c1) * iw, d2 = (lh - c2) * iw;
      const e = FLOOR + A0 / (1.0 + d0 * d0) + A1 / (1.0 + d1 * d1) + A2 / (1.0 + d2 * d2);
      peak = Math.max(peak, e);
      out[k] = <f32>e;
    }
    const s = <f32>(syl / peak);
    for (let k = 0; k < BANDS; k++) out[k] *= s;
    if (this.time >= cycle) this.time -= cycle;
  }

  process(l: usize, r: usize, n: i32): void {
    this.time += <f64>n / this.fs;
    this.envelopes(this.envNext);
    const m0 = this.mix.value * this.live.value;
    this.live.target = activeChannelCount() > 0 ? 1.0 : 0.0;
    const m1 = this.mix.step(this.coef) * this.live.step(this.coef);
    const mono = memory.compare(l, r, <usize>n << 2) == 0;
    this.bank(l, n, changetype<usize>(this.zl), m0, m1);
    if (mono) {
      memory.copy(r, l, <usize>n << 2);
      memory.copy(changetype<usize>(this.zr), changetype<usize>(this.zl), <usize>(BANDS * 2) << 2);
    } else {
      this.bank(r, n, changetype<usize>(this.zr), m0, m1);
    }
    memory.copy(changetype<usize>(this.env), changetype<usize>(this.envNext), <usize>BANDS << 2);
  }

  /** Runs the band-pass bank on one channel in place: x (1 - m) + norm m sum_k env_k bp_k(x). */
  bank(p: usize, n: i32, z: usize, m0: f32, m1: f32): void {
    const inv: f32 = 1.0 / <f32>n;
    const B = changetype<usize>(this.b0), A1 = changetype<usize>(this.a1), A2 = changetype<usize>(this.a2);
    const E0 = changetype<usize>(this.env), E1 = changetype<usize>(this.envNext);
    const b0a = v128.load(B), b0b = v128.load(B, 16), b0c = v128.load(B, 32), b0d = v128.load(B, 48);
    const a1a = v128.load(A1), a1b = v128.load(A1, 16), a1c = v128.load(A1, 32), a1d = v128.load(A1, 48);
    const a2a = v128.load(A2), a2b = v128.load(A2, 16), a2c = v128.load(A2, 32), a2d = v128.load(A2, 48);
    let z1a = v128.load(z), z1b = v128.load(z, 16), z1c = v128.load(z, 32), z1d = v128.load(z, 48);
    let z2a = v128.load(z, 64), z2b = v128.load(z, 80), z2c = v128.load(z, 96), z2d = v128.load(z, 112);
    // Wet band gains (env * norm * mix) ramp linearly from block start to end.
    const w0 = f32x4.splat(this.norm * m0), w1 = f32x4.splat(this.norm * m1);
    // The band-pass states are kept divided by b0 (y' = y / b0 needs no input multiply), so b0
    // moves into the band gains: wet = sum_k (b0_k g_k) y'_k.
    let ga = f32x4.mul(f32x4.mul(v128.load(E0), w0), b0a), gb = f32x4.mul(f32x4.mul(v128.load(E0, 16), w0), b0b);
    let gc = f32x4.mul(f32x4.mul(v128.load(E0, 32), w0), b0c), gd = f32x4.mul(f32x4.mul(v128.load(E0, 48), w0), b0d);
    // The gains step once per four samples (the value at the group's centre): the envelope
    // moves by well under 0.1 dB per block, so the 32 steps per block are far below audibility.
    const vi = f32x4.splat(inv);
    const da = f32x4.mul(f32x4.sub(f32x4.mul(f32x4.mul(v128.load(E1), w1), b0a), ga), vi);
    const db = f32x4.mul(f32x4.sub(f32x4.mul(f32x4.mul(v128.load(E1, 16), w1), b0b), gb), vi);
    const dc = f32x4.mul(f32x4.sub(f32x4.mul(f32x4.mul(v128.load(E1, 32), w1), b0c), gc), vi);
    const dd = f32x4.mul(f32x4.sub(f32x4.mul(f32x4.mul(v128.load(E1, 48), w1), b0d), gd), vi);
    const half = f32x4.splat(2.5), four = f32x4.splat(4.0);
    ga = f32x4.add(ga, f32x4.mul(da, half)); gb = f32x4.add(gb, f32x4.mul(db, half));
    gc = f32x4.add(gc, f32x4.mul(dc, half)); gd = f32x4.add(gd, f32x4.mul(dd, half));
    const da4 = f32x4.mul(da, four), db4 = f32x4.mul(db, four), dc4 = f32x4.mul(dc, four), dd4 = f32x4.mul(dd, four);
    // Dry gain per sample: 1 - m ramping from m0 to m1 (sample i at i + 1 steps).
    const dryStep = (m0 - m1) * inv;
    let dry = f32x4.add(f32x4.splat(1.0 - m0), f32x4.mul(f32x4(1.0, 2.0, 3.0, 4.0), f32x4.splat(dryStep)));
    const dry4 = f32x4.splat(4.0 * dryStep);
    // Four samples per pass (n is a multiple of 4: the engine's block, BLOCK, is 256): the four band
    // sums are added across lanes by one 4x4 transpose instead of a reduction per sample.
    for (let i = 0; i < n; i += 4) {
      const q = p + (<usize>i << 2);
      const xv = v128.load(q);
      // TDF-II band-pass with both states stored negated and divided by b0 (u1 = -z1 / b0,
      // u2 = -z2 / b0), which saves the negation and the input multiply:
      // y' = x - u1; u1 = u2 + a1 y'; u2 = x + a2 y' (y = b0 y').
      const X0 = v128.shuffle<f32>(xv, xv, 0, 0, 0, 0);
      const ya0 = f32x4.sub(X0, z1a), yb0 = f32x4.sub(X0, z1b), yc0 = f32x4.sub(X0, z1c), yd0 = f32x4.sub(X0, z1d);
      z1a = f32x4.add(z2a, f32x4.mul(a1a, ya0)); z1b = f32x4.add(z2b, f32x4.mul(a1b, yb0));
      z1c = f32x4.add(z2c, f32x4.mul(a1c, yc0)); z1d = f32x4.add(z2d, f32x4.mul(a1d, yd0));
      z2a = f32x4.add(X0, f32x4.mul(a2a, ya0)); z2b = f32x4.add(X0, f32x4.mul(a2b, yb0));
      z2c = f32x4.add(X0, f32x4.mul(a2c, yc0)); z2d = f32x4.add(X0, f32x4.mul(a2d, yd0));
      const s0 = f32x4.add(f32x4.add(f32x4.mul(ya0, ga), f32x4.mul(yb0, gb)), f32x4.add(f32x4.mul(yc0, gc), f32x4.mul(yd0, gd)));
      const X1 = v128.shuffle<f32>(xv, xv, 1, 1, 1, 1);
      const ya1 = f32x4.sub(X1, z1a), yb1 = f32x4.sub(X1, z1b), yc1 = f32x4.sub(X1, z1c), yd1 = f32x4.sub(X1, z1d);
      z1a = f32x4.add(z2a, f32x4.mul(a1a, ya1)); z1b = f32x4.add(z2b, f32x4.mul(a1b, yb1));
      z1c = f32x4.add(z2c, f32x4.mul(a1c, yc1)); z1d = f32x4.add(z2d, f32x4.mul(a1d, yd1));
      z2a = f32x4.add(X1, f32x4.mul(a2a, ya1)); z2b = f32x4.add(X1, f32x4.mul(a2b, yb1));
      z2c = f32x4.add(X1, f32x4.mul(a2c, yc1)); z2d = f32x4.add(X1, f32x4.mul(a2d, yd1));
      const s1 = f32x4.add(f32x4.add(f32x4.mul(ya1, ga), f32x4.mul(yb1, gb)), f32x4.add(f32x4.mul(yc1, gc), f32x4.mul(yd1, gd)));
      const X2 = v128.shuffle<f32>(xv, xv, 2, 2, 2, 2);
      const ya2 = f32x4.sub(X2, z1a), yb2 = f32x4.sub(X2, z1b), yc2 = f32x4.sub(X2, z1c), yd2 = f32x4.sub(X2, z1d);
      z1a = f32x4.add(z2a, f32x4.mul(a1a, ya2)); z1b = f32x4.add(z2b, f32x4.mul(a1b, yb2));
      z1c = f32x4.add(z2c, f32x4.mul(a1c, yc2)); z1d = f32x4.add(z2d, f32x4.mul(a1d, yd2));
      z2a = f32x4.add(X2, f32x4.mul(a2a, ya2)); z2b = f32x4.add(X2, f32x4.mul(a2b, yb2));
      z2c = f32x4.add(X2, f32x4.mul(a2c, yc2)); z2d = f32x4.add(X2, f32x4.mul(a2d, yd2));
      const s2 = f32x4.add(f32x4.add(f32x4.mul(ya2, ga), f32x4.mul(yb2, gb)), f32x4.add(f32x4.mul(yc2, gc), f32x4.mul(yd2, gd)));
      const X3 = v128.shuffle<f32>(xv, xv, 3, 3, 3, 3);
      const ya3 = f32x4.sub(X3, z1a), yb3 = f32x4.sub(X3, z1b), yc3 = f32x4.sub(X3, z1c), yd3 = f32x4.sub(X3, z1d);
      z1a = f32x4.add(z2a, f32x4.mul(a1a, ya3)); z1b = f32x4.add(z2b, f32x4.mul(a1b, yb3));
      z1c = f32x4.add(z2c, f32x4.mul(a1c, yc3)); z1d = f32x4.add(z2d, f32x4.mul(a1d, yd3));
      z2a = f32x4.add(X3, f32x4.mul(a2a, ya3)); z2b = f32x4.add(X3, f32x4.mul(a2b, yb3));
      z2c = f32x4.add(X3, f32x4.mul(a2c, yc3)); z2d = f32x4.add(X3, f32x4.mul(a2d, yd3));
      const s3 = f32x4.add(f32x4.add(f32x4.mul(ya3, ga), f32x4.mul(yb3, gb)), f32x4.add(f32x4.mul(yc3, gc), f32x4.mul(yd3, gd)));
      const u1 = f32x4.add(v128.shuffle<f32>(s0, s1, 0, 4, 1, 5), v128.shuffle<f32>(s0, s1, 2, 6, 3, 7));
      const u2 = f32x4.add(v128.shuffle<f32>(s2, s3, 0, 4, 1, 5), v128.shuffle<f32>(s2, s3, 2, 6, 3, 7));
      const wet = f32x4.add(v128.shuffle<f32>(u1, u2, 0, 1, 4, 5), v128.shuffle<f32>(u1, u2, 2, 3, 6, 7));
      v128.store(q, f32x4.add(f32x4.mul(xv, dry), wet));
      dry = f32x4.add(dry, dry4);
      ga = f32x4.add(ga, da4); gb = f32x4.add(gb, db4); gc = f32x4.add(gc, dc4); gd = f32x4.add(gd, dd4);
    }
    // Flush denormal-range state (silence after sound) to zero.
    const tiny = f32x4.splat(1e-20);
    z1a = v128.and(z1a, f32x4.gt(f32x4.abs(z1a), tiny)); z1b = v128.and(z1b, f32x4.gt(f32x4.abs(z1b), tiny));
    z1c = v128.and(z1c, f32x4.gt(f32x4.abs(z1c), tiny)); z1d = v128.and(z1d, f32x4.gt(f32x4.abs(z1d), tiny));
    z2a = v128.and(z2a, f32x4.gt(f32x4.abs(z2a), tiny)); z2b = v128.and(z2b, f32x4.gt(f32x4.abs(z2b), tiny));
    z2c = v128.and(z2c, f32x4.gt(f32x4.abs(z2c), tiny)); z2d = v128.and(z2d, f32x4.gt(f32x4.abs(z2d), tiny));
    v128.store(z, z1a); v128.store(z, z1b, 16); v128.store(z, z1c, 32); v128.store(z, z1d, 48);
    v128.store(z, z2a, 64); v128.store(z, z2b, 80); v128.store(z, z2c, 96); v128.store(z, z2d, 112);
  }
}
