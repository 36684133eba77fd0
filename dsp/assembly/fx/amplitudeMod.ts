// Amplitude modulation: full-depth sine AM at `value` Hz (0.1-20). The gain follows
// 0.5 + 0.5 cos(2 pi rate t): from full level down to silence and back once per cycle, which
// puts sidebands at f +/- rate at half the carrier's amplitude. Rate smoothed per block.

import { Effect } from "./effect";
import { blockCoef } from "../lib/smooth";
import { Lfo, sineTable } from "../lib/voice-osc";
import { modGainCosine } from "../lib/voice-modgain";

export class AmplitudeMod extends Effect {
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
    modGainCosine(l, r, n, this.table, p, this.lfo.inc, 0.5, 0.5, 0.5, 0.5);
  }
}
