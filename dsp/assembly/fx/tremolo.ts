// Tremolo: amplitude modulation by a sine LFO at `value` Hz (0.1-20), depth 0.5 (gain swings
// between 0.5 and 1.0, so the tone never vanishes). The LFO phase is f64 and the rate is
// smoothed per block, so moving the slider never clicks; the LFO is read from the sine table.

import { Effect } from "./effect";
import { blockCoef } from "../lib/smooth";
import { Lfo, sineTable } from "../lib/voice-osc";
import { modGainCosine } from "../lib/voice-modgain";

const DEPTH: f32 = 0.5;

export class Tremolo extends Effect {
  lfo: Lfo = new Lfo();
  table: usize = 0;
  coef: f64 = 0.0;

  init(fs: f64): void {
    super.init(fs);
    this.table = sineTable();
    this.coef = <f64>blockCoef(fs);
  }

  reset(): void {
    this.lfo.reset(<f64>this.value);
  }

  process(l: usize, r: usize, n: i32): void {
    const p = this.lfo.begin(<f64>this.value, this.coef, n, this.fs);
    // gain = 1 - depth/2 + depth/2 * cos: 1 at phase 0, 1 - depth half a cycle later.
    const a: f32 = 1.0 - DEPTH * 0.5;
    const b: f32 = DEPTH * 0.5;
    modGainCosine(l, r, n, this.table, p, this.lfo.inc, a, a, b, b);
  }
}
