// Isochronic pulses: the tone is switched on and off `value` times per second (0.1-12 Hz),
// on for half of each period. The edges are raised-cosine ramps of 25 ms, shortened to at most
// 15% of the period at fast rates, so the pulses are distinct yet never click.
// The gate effect is the same pulse with short edges (fx/gate.ts).

import { Effect } from "./effect";
import { blockCoef } from "../lib/smooth";
import { Lfo } from "../lib/mod/lfo";
import { sineTable } from "../lib/mod/table";
import { pulseGain } from "../lib/mod/modgain";

export class IsoPulses extends Effect {
  lfo: Lfo = new Lfo();
  table: usize = 0;
  coef: f64 = 0.0;
  edgeSeconds: f64 = 0.025; // edge ramp length
  maxEdge: f64 = 0.15;      // longest edge, as a fraction of the period

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
    const edge = <f32>Math.min(this.maxEdge, this.edgeSeconds * this.lfo.rate);
    pulseGain(l, r, n, this.table, p, this.lfo.inc, edge);
  }
}
