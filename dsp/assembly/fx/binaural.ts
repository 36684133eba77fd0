// Binaural beat: each sounding channel is re-synthesised per ear, the left ear at f - beat/2 and
// the right ear at f + beat/2 (value = beat in Hz), so the ears differ by exactly the beat while
// the perceived pitch stays f. It runs first in the chain, where the block is still the pure
// channel mix, and replaces it; the chain's crossfade makes switching it on and off click-free.
// Per-ear phases start at the channels' own phases, so switching on does not cancel the tone.

import { MAX_FREQUENCY_HZ } from "../../host/model/limits";
import { channels, sampleRate } from "../bus";
import { CHANNELS } from "../lib/constants";
import { lookup } from "../osc/channel";
import { tableFor } from "../osc/wavetable";
import { Effect } from "./effect";

const TWO64: f64 = 18446744073709551616.0;

export class Binaural extends Effect {
  phaseL: StaticArray<u64> = new StaticArray<u64>(CHANNELS);
  phaseR: StaticArray<u64> = new StaticArray<u64>(CHANNELS);
  incL: StaticArray<u64> = new StaticArray<u64>(CHANNELS);
  incR: StaticArray<u64> = new StaticArray<u64>(CHANNELS);
  tabL: StaticArray<usize> = new StaticArray<usize>(CHANNELS);
  tabR: StaticArray<usize> = new StaticArray<usize>(CHANNELS);
  g0: StaticArray<f32> = new StaticArray<f32>(CHANNELS);
  gs: StaticArray<f32> = new StaticArray<f32>(CHANNELS);
  beat: f64 = 10.0;
  replacesInput: bool = true;

  reset(): void {
    for (let c = 0; c < CHANNELS; c++) {
      unchecked((this.phaseL[c] = channels[c].phase));
      unchecked((this.phaseR[c] = channels[c].phase));
    }
    this.beat = <f64>this.value;
  }

  process(l: usize, r: usize, n: i32): void {
    const target = <f64>this.value;
    this.beat += (target - this.beat) * 0.3;
    if (Math.abs(this.beat - target) < 1e-4) this.beat = target;
    const half = this.beat * 0.5;
    // Per-ear increments and tables for every channel; silent channels get gain 0 and their
    // clock still runs (so switching them on later stays in phase with the dry tone).
    for (let c = 0; c < CHANNELS; c++) {
      const ch = channels[c];
      const fl = Math.max(ch.freq - half, 0.0);
      const fr = Math.min(ch.freq + half, MAX_FREQUENCY_HZ);
      unchecked((this.incL[c] = <u64>(fl / sampleRate * TWO64)));
      unchecked((this.incR[c] = <u64>(fr / sampleRate * TWO64)));
      unchecked((this.tabL[c] = tableFor(ch.waveform, fl / sampleRate)));
      unchecked((this.tabR[c] = tableFor(ch.waveform, fr / sampleRate)));
      unchecked((this.g0[c] = ch.sounding ? ch.g : <f32>0.0));
      unchecked((this.gs[c] = ch.sounding ? ch.gStep : <f32>0.0));
    }
    // All four channels in one pass: two stores per frame instead of eight read-modify-writes.
    const iL0 = unchecked(this.incL[0]), iL1 = unchecked(this.incL[1]), iL2 = unchecked(this.incL[2]), iL3 = unchecked(this.incL[3]);
    const iR0 = unchecked(this.incR[0]), iR1 = unchecked(this.incR[1]), iR2 = unchecked(this.incR[2]), iR3 = unchecked(this.incR[3]);
    const tL0 = unchecked(this.tabL[0]), tL1 = unchecked(this.tabL[1]), tL2 = unchecked(this.tabL[2]), tL3 = unchecked(this.tabL[3]);
    const tR0 = unchecked(this.tabR[0]), tR1 = unchecked(this.tabR[1]), tR2 = unchecked(this.tabR[2]), tR3 = unchecked(this.tabR[3]);
    const s0 = unchecked(this.gs[0]), s1 = unchecked(this.gs[1]), s2 = unchecked(this.gs[2]), s3 = unchecked(this.gs[3]);
    let g0 = unchecked(this.g0[0]), g1 = unchecked(this.g0[1]), g2 = unchecked(this.g0[2]), g3 = unchecked(this.g0[3]);
    let pL0 = unchecked(this.phaseL[0]), pL1 = unchecked(this.phaseL[1]), pL2 = unchecked(this.phaseL[2]), pL3 = unchecked(this.phaseL[3]);
    let pR0 = unchecked(this.phaseR[0]), pR1 = unchecked(this.phaseR[1]), pR2 = unchecked(this.phaseR[2]), pR3 = unchecked(this.phaseR[3]);
    for (let i = 0; i < n; i++) {
      const o = <usize>i << 2;
      store<f32>(l + o, lookup(tL0, pL0) * g0 + lookup(tL1, pL1) * g1 + lookup(tL2, pL2) * g2 + lookup(tL3, pL3) * g3);
      store<f32>(r + o, lookup(tR0, pR0) * g0 + lookup(tR1, pR1) * g1 + lookup(tR2, pR2) * g2 + lookup(tR3, pR3) * g3);
      pL0 += iL0; pL1 += iL1; pL2 += iL2; pL3 += iL3;
      pR0 += iR0; pR1 += iR1; pR2 += iR2; pR3 += iR3;
      g0 += s0; g1 += s1; g2 += s2; g3 += s3;
    }
    unchecked((this.phaseL[0] = pL0)); unchecked((this.phaseL[1] = pL1)); unchecked((this.phaseL[2] = pL2)); unchecked((this.phaseL[3] = pL3));
    unchecked((this.phaseR[0] = pR0)); unchecked((this.phaseR[1] = pR1)); unchecked((this.phaseR[2] = pR2)); unchecked((this.phaseR[3] = pR3));
  }
}
