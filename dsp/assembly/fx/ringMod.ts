// Ring modulator: the tone times a 30 Hz sine (catalogue description), blended with the dry tone
// by `value` % (wet mix). A partial at f becomes two at f - 30 and f + 30 Hz, each at half the
// wet amplitude; the dry part keeps (1 - mix) of f. out = x * ((1 - m) + m sin(2 pi 30 t)).

import { Effect } from "./effect";
import { blockCoef, Smoothed } from "../lib/smooth";
import { Lfo } from "../lib/mod/lfo";
import { sineTable } from "../lib/mod/table";
import { modGainSine } from "../lib/mod/modgain";

/** Modulator frequency in Hz (catalogue: "Multiplies the tone by a 30 Hz modulator"). */
export const RING_HZ: f64 = 30.0;

export class RingMod extends Effect {
  lfo: Lfo = new Lfo();
  mix: Smoothed = new Smoothed();
  table: usize = 0;
  coef: f32 = 0.0;

  init(fs: f64): void {
    super.init(fs);
    this.table = sineTable();
    this.coef = blockCoef(fs);
  }

  set(value: f32, e1: f32, e2: f32, e3: f32): void {
    super.set(value, e1, e2, e3);
    this.mix.target = Mathf.min(Mathf.max(value, 0.0), 100.0) * 0.01;
  }

  reset(): void {
    this.lfo.reset(RING_HZ);
    this.mix.jump(this.mix.target);
  }

  process(l: usize, r: usize, n: i32): void {
    const p = this.lfo.begin(RING_HZ, 1.0, n, this.fs);
    const m0 = this.mix.value;
    const m1 = this.mix.step(this.coef);
    modGainSine(l, r, n, this.table, p, this.lfo.inc, 1.0 - m0, 1.0 - m1, m0, m1);
  }
}
