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
  zl: StaticArray<f32> = new StaticArray<f32>(BANDS * 2); // z1 then z2, left
  zr: StaticArray<f32> = new StaticArray<f32>(BANDS * 2);
  logHz: StaticArray<f64> = new StaticArray<f64>(BANDS);
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
    let peak = 0.0;
    for (let k = 0; k < BANDS; k++) {
      let e = FLOOR;
      for (let j = 0; j < 3; j++) {
        const fa = Math.log2(VOWELS[v * 3 + j]);
        const fb = Math.log2(VOWELS[w * 3 + j]);
        const d = (this.logHz[k] - (fa + (fb - fa) * x)) / FORMANT_WIDTH;
        e += AMPS[j] / (1.0 + d * d);
      }
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
    let ga = f32x4.mul(v128.load(E0), w0), gb = f32x4.mul(v128.load(E0, 16), w0);
    let gc = f32x4.mul(v128.load(E0, 32), w0), gd = f32x4.mul(v128.load(E0, 48), w0);
    const vi = f32x4.splat(inv);
    const da = f32x4.mul(f32x4.sub(f32x4.mul(v128.load(E1), w1), ga), vi);
    const db = f32x4.mul(f32x4.sub(f32x4.mul(v128.load(E1, 16), w1), gb), vi);
    const dc = f32x4.mul(f32x4.sub(f32x4.mul(v128.load(E1, 32), w1), gc), vi);
    const dd = f32x4.mul(f32x4.sub(f32x4.mul(v128.load(E1, 48), w1), gd), vi);
    let dry: f32 = 1.0 - m0;
    const dryStep = (m0 - m1) * inv;
    for (let i = 0; i < n; i++) {
      const o = <usize>i << 2;
      const x = load<f32>(p + o);
      const X = f32x4.splat(x);
      ga = f32x4.add(ga, da); gb = f32x4.add(gb, db); gc = f32x4.add(gc, dc); gd = f32x4.add(gd, dd);
      // TDF-II band-pass: y = b0 x + z1; z1 = z2 - a1 y; z2 = -b0 x - a2 y.
      const xa = f32x4.mul(b0a, X), xb = f32x4.mul(b0b, X), xc = f32x4.mul(b0c, X), xd = f32x4.mul(b0d, X);
      const ya = f32x4.add(xa, z1a), yb = f32x4.add(xb, z1b), yc = f32x4.add(xc, z1c), yd = f32x4.add(xd, z1d);
      z1a = f32x4.sub(z2a, f32x4.mul(a1a, ya)); z1b = f32x4.sub(z2b, f32x4.mul(a1b, yb));
      z1c = f32x4.sub(z2c, f32x4.mul(a1c, yc)); z1d = f32x4.sub(z2d, f32x4.mul(a1d, yd));
      z2a = f32x4.neg(f32x4.add(xa, f32x4.mul(a2a, ya))); z2b = f32x4.neg(f32x4.add(xb, f32x4.mul(a2b, yb)));
      z2c = f32x4.neg(f32x4.add(xc, f32x4.mul(a2c, yc))); z2d = f32x4.neg(f32x4.add(xd, f32x4.mul(a2d, yd)));
      const s = f32x4.add(
        f32x4.add(f32x4.mul(ya, ga), f32x4.mul(yb, gb)),
        f32x4.add(f32x4.mul(yc, gc), f32x4.mul(yd, gd)),
      );
      const h = f32x4.add(s, v128.shuffle<f32>(s, s, 2, 3, 0, 1));
      const wet = f32x4.extract_lane(h, 0) + f32x4.extract_lane(h, 1);
      dry += dryStep;
      store<f32>(p + o, x * dry + wet);
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
