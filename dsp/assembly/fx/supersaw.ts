// Supersaw: five band-limited sawtooth voices per sounding channel, added to the mix at the
// channel's own tone level (spec 9: gain 0.15, i.e. the channel gain times the mixer's 1/N).
// Detune (spec 9, "half the absolute slider value in cents"): the outermost voice sits
// |value|/2 cents from the channel, the others evenly between (value 50: 0, 6.25, 12.5, 18.75,
// 25 cents); positive values spread upward, negative downward. The voices follow the channel's
// live (gliding) pitch and gain, so they fade with it and are silent when no channel sounds.
// Voices start at seeded random phases (no phase-locked unison spike) and are panned across
// the stereo field with equal-power gains. Saw tables are the engine's mipmapped wavetables.

import { Effect } from "./effect";
import { channels, toneScale } from "../bus";
import { CHANNELS } from "../lib/constants";
import { blockCoef, Smoothed } from "../lib/smooth";
import { Rng } from "../lib/rng";
import { incU32, tableAt, TWO32 } from "../lib/voice-osc";
import { tableFor, WAVE_SAWTOOTH } from "../osc/wavetable";

const VOICES: i32 = 5;
// Equal-power pan positions in [-1, 1] for voices 0..4 (0 = the undetuned voice, centre).
const PAN: StaticArray<f32> = [0.0, -0.5, 0.5, -0.9, 0.9];

export class Supersaw extends Effect {
  phases: StaticArray<u32> = new StaticArray<u32>(CHANNELS * VOICES);
  gains: StaticArray<f32> = new StaticArray<f32>(CHANNELS);
  panL: StaticArray<f32> = new StaticArray<f32>(VOICES);
  panR: StaticArray<f32> = new StaticArray<f32>(VOICES);
  spread: Smoothed = new Smoothed(); // cents of the outermost voice
  rng: Rng = new Rng();
  coef: f32 = 0.0;

  init(fs: f64): void {
    super.init(fs);
    this.coef = blockCoef(fs);
    for (let k = 0; k < VOICES; k++) {
      const a = (<f64>PAN[k] + 1.0) * Math.PI * 0.25;
      this.panL[k] = <f32>Math.cos(a);
      this.panR[k] = <f32>Math.sin(a);
    }
  }

  set(value: f32, e1: f32, e2: f32, e3: f32): void {
    super.set(value, e1, e2, e3);
    this.spread.target = Mathf.min(Mathf.max(value, -100.0), 100.0) * 0.5;
  }

  reset(): void {
    this.rng.seed(0x5a5a17);
    for (let i = 0; i < CHANNELS * VOICES; i++) this.phases[i] = <u32>(<i32>(this.rng.next() * 2147483648.0));
    for (let c = 0; c < CHANNELS; c++) this.gains[c] = 0.0;
    this.spread.jump(this.spread.target);
  }

  process(l: usize, r: usize, n: i32): void {
    const cents = <f64>this.spread.step(this.coef);
    const inv: f32 = 1.0 / <f32>n;
    for (let c = 0; c < CHANNELS; c++) {
      const ch = channels[c];
      const g0 = this.gains[c];
      const g1 = ch.gain * toneScale;
      this.gains[c] = g1;
      const base = ch.inc;
      if ((g0 == 0.0 && g1 == 0.0) || base <= 0.0) continue;
      // Voice k is detuned by k/4 of the spread.
      const r1 = Math.pow(2.0, cents * 0.25 / 1200.0);
      const r2 = r1 * r1;
      const r3 = r2 * r1;
      const r4 = r2 * r2;
      const i0 = incU32(base), i1 = incU32(base * r1), i2 = incU32(base * r2);
      const i3 = incU32(base * r3), i4 = incU32(base * r4);
      const top = <f64>max(max(i0, i4), 0) / TWO32;
      const t = tableFor(WAVE_SAWTOOTH, top);
      const o = c * VOICES;
      let p0 = unchecked(this.phases[o]), p1 = unchecked(this.phases[o + 1]), p2 = unchecked(this.phases[o + 2]);
      let p3 = unchecked(this.phases[o + 3]), p4 = unchecked(this.phases[o + 4]);
      const l0 = unchecked(this.panL[0]), l1 = unchecked(this.panL[1]), l2 = unchecked(this.panL[2]);
      const l3 = unchecked(this.panL[3]), l4 = unchecked(this.panL[4]);
      const q0 = unchecked(this.panR[0]), q1 = unchecked(this.panR[1]), q2 = unchecked(this.panR[2]);
      const q3 = unchecked(this.panR[3]), q4 = unchecked(this.panR[4]);
      const gs = (g1 - g0) * inv;
      let g = g0;
      for (let i = 0; i < n; i++) {
        g += gs;
        const s0 = tableAt(t, p0), s1 = tableAt(t, p1), s2 = tableAt(t, p2);
        const s3 = tableAt(t, p3), s4 = tableAt(t, p4);
        p0 += i0; p1 += i1; p2 += i2; p3 += i3; p4 += i4;
        const a = <usize>i << 2;
        store<f32>(l + a, load<f32>(l + a) + (s0 * l0 + s1 * l1 + s2 * l2 + s3 * l3 + s4 * l4) * g);
        store<f32>(r + a, load<f32>(r + a) + (s0 * q0 + s1 * q1 + s2 * q2 + s3 * q3 + s4 * q4) * g);
      }
      unchecked((this.phases[o] = p0));
      unchecked((this.phases[o + 1] = p1));
      unchecked((this.phases[o + 2] = p2));
      unchecked((this.phases[o + 3] = p3));
      unchecked((this.phases[o + 4] = p4));
    }
  }
}
