// Tremolo: amplitude modulation by a sine LFO at `value` Hz (0.1-20), depth 0.5 (gain swings
// between 0.5 and 1.0, so the tone never vanishes). The LFO phase is f64 and the rate is
// smoothed per block, so moving the slider never clicks.

import { Effect } from "./effect";

const DEPTH: f32 = 0.5;

export class Tremolo extends Effect {
  phase: f64 = 0.0;
  rate: f64 = 4.0;

  set(value: f32, e1: f32, e2: f32, e3: f32): void {
    super.set(value, e1, e2, e3);
  }

  reset(): void {
    this.phase = 0.0;
    this.rate = <f64>this.value;
  }

  process(l: usize, r: usize, n: i32): void {
    const target = <f64>this.value;
    const rate0 = this.rate;
    const rate1 = rate0 + (target - rate0) * 0.2;
    this.rate = Math.abs(rate1 - target) < 1e-6 ? target : rate1;
    const inc = (rate0 + this.rate) * 0.5 / this.fs;
    let ph = this.phase;
    for (let i = 0; i < n; i++) {
      const g = <f32>(1.0 - <f64>DEPTH * 0.5 * (1.0 - Math.cos(2.0 * Math.PI * ph)));
      const pl = l + (<usize>i << 2);
      const pr = r + (<usize>i << 2);
      store<f32>(pl, load<f32>(pl) * g);
      store<f32>(pr, load<f32>(pr) * g);
      ph += inc;
      if (ph >= 1.0) ph -= 1.0;
    }
    this.phase = ph;
  }
}
