// Supersaw: five band-limited sawtooth voices per sounding channel, added to the mix at the
// channel's own tone level (spec 9: gain 0.15, i.e. the channel gain times the mixer's 1/N).
// Detune (spec 9, "half the absolute slider value in cents"): the outermost voice sits
// |value|/2 cents from the channel, the others evenly between (value 50: 0, 6.25, 12.5, 18.75,
// 25 cents); positive values spread upward, negative downward. The voices follow the channel's
// live (gliding) pitch and gain, so they fade with it and are silent when no channel sounds.
// Voices start at seeded random phases (no phase-locked unison spike) and are panned across
// the stereo field with equal-power gains.
//
// Band-limiting: the engine's mipmapped sawtooth wavetables (osc/wavetable.ts), one level per
// channel chosen for its highest voice, copied at init into (value, slope) pairs so one 64-bit
// load gives both interpolation points. SIMD: the four channels are the four lanes; the five
// voices are five v128 phase accumulators, each gathered with four 64-bit lane loads.

import { Effect } from "./effect";
import { channels, toneScale } from "../bus";
import { BLOCK, CHANNELS } from "../lib/constants";
import { blockCoef, Smoothed } from "../lib/smooth";
import { Rng } from "../lib/rng";
import { addLaneSums } from "../lib/simd";
import { incU32, pairLookup4, TWO32 } from "../lib/mod/table";
import { LEVELS, TABLE_SIZE, TABLE_STRIDE, tableFor, WAVE_SAWTOOTH } from "../osc/wavetable";

const VOICES: i32 = 5;
// Equal-power pan positions in [-1, 1] for voices 0..4 (0 = the undetuned voice, centre).
const PAN: StaticArray<f32> = [0.0, -0.5, 0.5, -0.9, 0.9];
const PAIR_BYTES: usize = <usize>TABLE_SIZE << 3;

export class Supersaw extends Effect {
  phases: StaticArray<u32> = new StaticArray<u32>(VOICES * CHANNELS); // [voice][channel]
  incs: StaticArray<u32> = new StaticArray<u32>(VOICES * CHANNELS);
  bases: StaticArray<u32> = new StaticArray<u32>(CHANNELS);           // pair table per channel
  g0: StaticArray<f32> = new StaticArray<f32>(CHANNELS);
  g1: StaticArray<f32> = new StaticArray<f32>(CHANNELS);
  pan: StaticArray<f32> = new StaticArray<f32>(VOICES * 2);
  mixK: StaticArray<f32> = new StaticArray<f32>(6 * 4); // splats: centre; mid, side (1, 2); (3, 4); gain step
  vecL: StaticArray<f32> = new StaticArray<f32>(BLOCK * 4); // per-sample lane values
  vecR: StaticArray<f32> = new StaticArray<f32>(BLOCK * 4);
  pairs: usize = 0;    // LEVELS tables of TABLE_SIZE (value, next - value) pairs
  saw0: usize = 0;     // the engine's level-0 sawtooth table
  spread: Smoothed = new Smoothed(); // cents of the outermost voice
  rng: Rng = new Rng();
  coef: f32 = 0.0;
  fade: f32 = 0.0;

  init(fs: f64): void {
    super.init(fs);
    this.coef = blockCoef(fs);
    this.fade = blockCoef(fs, 0.02);
    for (let k = 0; k < VOICES; k++) {
      const a = (<f64>PAN[k] + 1.0) * Math.PI * 0.25;
      this.pan[k * 2] = <f32>Math.cos(a);
      this.pan[k * 2 + 1] = <f32>Math.sin(a);
    }
    // Mid/side gains of the mirror pairs (1, 2) and (3, 4), L = M + S, R = M - S.
    const P = this.pan;
    const k: StaticArray<f32> = [P[0], 0.5 * (P[2] + P[3]), 0.5 * (P[2] - P[3]), 0.5 * (P[6] + P[7]), 0.5 * (P[6] - P[7])];
    for (let j = 0; j < 5; j++) for (let lane = 0; lane < 4; lane++) this.mixK[j * 4 + lane] = k[j];
    this.saw0 = tableFor(WAVE_SAWTOOTH, 0.49); // 0.45 / 0.49 < 1 harmonic: level 0
    this.pairs = changetype<usize>(new StaticArray<f32>(LEVELS * TABLE_SIZE * 2));
    for (let lv = 0; lv < LEVELS; lv++) {
      const src = this.saw0 + (<usize>(lv * TABLE_STRIDE) << 2);
      const dst = this.pairs + <usize>lv * PAIR_BYTES;
      for (let i = 0; i < TABLE_SIZE; i++) {
        const a = load<f32>(src + (<usize>i << 2));
        const b = load<f32>(src + (<usize>(i + 1) << 2)); // guard sample at TABLE_SIZE
        store<f32>(dst + (<usize>i << 3), a);
        store<f32>(dst + (<usize>i << 3), b - a, 4);
      }
    }
  }

  set(value: f32, e1: f32, e2: f32, e3: f32): void {
    super.set(value, e1, e2, e3);
    this.spread.target = Mathf.min(Mathf.max(value, -100.0), 100.0) * 0.5;
  }

  reset(): void {
    this.rng.seed(0x5a5a17);
    for (let i = 0; i < CHANNELS * VOICES; i++) this.phases[i] = <u32>(<i32>(this.rng.next() * 2147483648.0));
    for (let c = 0; c < CHANNELS; c++) {
      this.g1[c] = 0.0;
      this.bases[c] = <u32>this.pairs;
    }
    this.spread.jump(this.spread.target);
  }

  process(l: usize, r: usize, n: i32): void {
    const cents = <f64>this.spread.step(this.coef);
    // Voice k is detuned by k/4 of the spread.
    const r1 = Math.pow(2.0, cents * 0.25 / 1200.0);
    let any = false;
    for (let c = 0; c < CHANNELS; c++) {
      const ch = channels[c];
      // The voices follow the channel's level with a 20 ms glide, so switching the effect on
      // (or a channel appearing) swells in and the master compressor can follow it.
      const want = ch.inc > 0.0 ? ch.gain * toneScale : <f32>0.0;
      const was = this.g1[c];
      let g = was + (want - was) * this.fade;
      if (Mathf.abs(want - g) < 1e-7) g = want;
      this.g0[c] = was;
      this.g1[c] = g;
      if (g == 0.0 && this.g0[c] == 0.0) {
        for (let k = 0; k < VOICES; k++) this.incs[k * CHANNELS + c] = 0;
        continue;
      }
      any = true;
      let ratio = 1.0;
      let top: u32 = 0;
      for (let k = 0; k < VOICES; k++) {
        const inc = incU32(ch.inc * ratio);
        this.incs[k * CHANNELS + c] = inc;
        top = max(top, inc);
        ratio *= r1;
      }
      const t = tableFor(WAVE_SAWTOOTH, <f64>top / TWO32);
      const level = <usize>((t - this.saw0) / (<usize>TABLE_STRIDE << 2));
      this.bases[c] = <u32>(this.pairs + level * PAIR_BYTES);
    }
    if (!any) return;
    this.render(l, r, n);
  }

  private render(l: usize, r: usize, n: i32): void {
    const P = changetype<usize>(this.phases), I = changetype<usize>(this.incs);
    let p0 = v128.load(P), p1 = v128.load(P, 16), p2 = v128.load(P, 32), p3 = v128.load(P, 48), p4 = v128.load(P, 64);
    const i0 = v128.load(I), i1 = v128.load(I, 16), i2 = v128.load(I, 32), i3 = v128.load(I, 48), i4 = v128.load(I, 64);
    const base = v128.load(changetype<usize>(this.bases));
    // Pan gains as vectors, made once in init (read from memory here: computed in the function,
    // the compiler re-derived them inside the loops).
    const K = changetype<usize>(this.mixK);
    const VL = changetype<usize>(this.vecL), VR = changetype<usize>(this.vecR);
    let g = v128.load(changetype<usize>(this.g0));
    // Gain step read from memory in the loop (as a local it was recomputed every sample).
    v128.store(K, f32x4.mul(f32x4.sub(v128.load(changetype<usize>(this.g1)), g), f32x4.splat(1.0 / <f32>n)), 80);
    // Three passes over the block (voice 0; voices 1 and 2; voices 3 and 4) instead of one: each
    // keeps few enough vectors live to stay in registers, where the single pass spilled heavily.
    // Pans are mirror pairs (1, 2) and (3, 4): mid/side form, L = M + S, R = M - S; the mid part
    // builds up in VL, the side part in VR, and the last pass applies the gain and writes L, R.
    for (let i = 0; i < n; i++) {
      v128.store(VL + (<usize>i << 4), f32x4.mul(pairLookup4(p0, base), v128.load(K)));
      p0 = i32x4.add(p0, i0);
    }
    for (let i = 0; i < n; i++) {
      const s1 = pairLookup4(p1, base), s2 = pairLookup4(p2, base);
      p1 = i32x4.add(p1, i1); p2 = i32x4.add(p2, i2);
      const o = <usize>i << 4;
      v128.store(VL + o, f32x4.add(v128.load(VL + o), f32x4.mul(f32x4.add(s1, s2), v128.load(K, 16))));
      v128.store(VR + o, f32x4.mul(f32x4.sub(s1, s2), v128.load(K, 32)));
    }
    for (let i = 0; i < n; i++) {
      const s3 = pairLookup4(p3, base), s4 = pairLookup4(p4, base);
      p3 = i32x4.add(p3, i3); p4 = i32x4.add(p4, i4);
      g = f32x4.add(g, v128.load(K, 80));
      const o = <usize>i << 4;
      const m = f32x4.add(v128.load(VL + o), f32x4.mul(f32x4.add(s3, s4), v128.load(K, 48)));
      const sd = f32x4.add(v128.load(VR + o), f32x4.mul(f32x4.sub(s3, s4), v128.load(K, 64)));
      v128.store(VL + o, f32x4.mul(g, f32x4.add(m, sd)));
      v128.store(VR + o, f32x4.mul(g, f32x4.sub(m, sd)));
    }
    addLaneSums(VL, n, l, 0);
    addLaneSums(VR, n, r, 0);
    v128.store(P, p0); v128.store(P, p1, 16); v128.store(P, p2, 32); v128.store(P, p3, 48); v128.store(P, p4, 64);
  }
}
