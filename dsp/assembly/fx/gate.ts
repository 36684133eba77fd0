// Rhythmic gate: a hard on/off chop at `value` Hz (0.5-16), on for half of each period. Unlike
// the isochronic pulses its edges are short (3 ms raised-cosine ramps, at most 10% of the period):
// percussive, but without the click of a true step.

import { Effect } from "./effect";
import { blockCoef } from "../lib/smooth";
import { Lfo, sineTable } from "../lib/voice-osc";
import { pulseGain } from "../lib/voice-modgain";

const EDGE_SECONDS: f64 = 0.003;
const MAX_EDGE: f64 = 0.1;

export class Gate extends Effect {
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
    const edge = <f32>Math.min(MAX_EDGE, EDGE_SECONDS * this.lfo.rate);
    pulseGain(l, r, n, this.table, p, this.lfo.inc, edge);
  }
}
