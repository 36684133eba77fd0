// Amplitude modulation: full-depth sine AM at `value` Hz (0.1-20). The gain follows
// 0.5 + 0.5 cos(2 pi rate t): from full level down to silence and back once per cycle, which
// puts sidebands at f +/- rate at half the carrier's amplitude. Rate smoothed per block.
// Tremolo (fx/tremolo.ts) is the same modulation at depth 0.5.

import { Effect } from "./effect";
import { blockCoef } from "../lib/smooth";
import { Lfo } from "../lib/mod/lfo";
import { sineTable } from "../lib/mod/table";
import { modGainCosine } from "../lib/mod/modgain";

export class AmplitudeMod extends Effect {
  lfo: Lfo = new Lfo();
  table: usize = 0;
  coef: f64 = 0.0;
  depth: f32 = 1.0; // the gain swings between 1 and 1 - depth

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
    const a: f32 = 1.0 - this.depth * 0.5;
    const b: f32 = this.depth * 0.5;
    modGainCosine(l, r, n, this.table, p, this.lfo.inc, a, a, b, b);
  }
}
