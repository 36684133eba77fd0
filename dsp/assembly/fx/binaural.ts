// Binaural beat: each sounding channel is re-synthesised per ear, the left ear at f - beat/2 and
// the right ear at f + beat/2 (value = beat in Hz), so the ears differ by exactly the beat while
// the perceived pitch stays f. It runs first in the chain, where the block is still the pure
// channel mix, and replaces it; the chain's crossfade makes switching it on and off click-free.
// Per-ear phases start at the channels' own phases, so switching on does not cancel the tone.

import { channels, sampleRate } from "../bus";
import { CHANNELS } from "../lib/constants";
import { lookup } from "../osc/channel";
import { tableFor } from "../osc/wavetable";
import { Effect } from "./effect";

const TWO64: f64 = 18446744073709551616.0;

export class Binaural extends Effect {
  phaseL: StaticArray<u64> = new StaticArray<u64>(CHANNELS);
  phaseR: StaticArray<u64> = new StaticArray<u64>(CHANNELS);
  beat: f64 = 10.0;

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
    memory.fill(l, 0, <usize>n << 2);
    memory.fill(r, 0, <usize>n << 2);
    for (let c = 0; c < CHANNELS; c++) {
      const ch = channels[c];
      if (!ch.sounding) continue;
      const fl = Math.max(ch.freq - half, 0.0);
      const fr = Math.min(ch.freq + half, 20000.0);
      const incL = <u64>(fl / sampleRate * TWO64);
      const incR = <u64>(fr / sampleRate * TWO64);
      const tL = tableFor(ch.waveform, fl / sampleRate);
      const tR = tableFor(ch.waveform, fr / sampleRate);
      let pL = unchecked(this.phaseL[c]);
      let pR = unchecked(this.phaseR[c]);
      let g = ch.g;
      const gs = ch.gStep;
      for (let i = 0; i < n; i++) {
        const o = <usize>i << 2;
        store<f32>(l + o, load<f32>(l + o) + lookup(tL, pL) * g);
        store<f32>(r + o, load<f32>(r + o) + lookup(tR, pR) * g);
        pL += incL;
        pR += incR;
        g += gs;
      }
      unchecked((this.phaseL[c] = pL));
      unchecked((this.phaseR[c] = pR));
    }
  }
}
