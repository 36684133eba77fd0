// 360° Pan: the sound circles the head at `value` Hz (0.1-20). The azimuth phi turns at the set
// rate; its left-right component sin(phi) drives an equal-power pan (lib/mod/pan), so the
// level summed over both ears never changes while the sound moves. The phase is f64 (no drift);
// the gains are exact at block edges and ramp linearly inside (at 20 Hz the ramp error is < 0.1 dB).

import { Effect } from "./effect";
import { Smoothed, blockCoef } from "../lib/smooth";
import { panLeft, panRight, stereoGainRamp } from "../lib/mod/pan";
import { sin2pi } from "../lib/math";

export class Pan360 extends Effect {
  rate: Smoothed = new Smoothed();
  phase: f64 = 0.0;
  gl: f32 = 1.0;
  gr: f32 = 1.0;
  coef: f32 = 0.1;

  init(fs: f64): void {
    super.init(fs);
    this.coef = blockCoef(fs);
  }

  set(value: f32, e1: f32, e2: f32, e3: f32): void {
    super.set(value, e1, e2, e3);
    this.rate.target = Mathf.max(value, 0.0);
  }

  reset(): void {
    this.rate.jump(this.rate.target);
    this.phase = 0.0;
    this.gl = 1.0; // azimuth 0: straight ahead, both ears at unity
    this.gr = 1.0;
  }

  process(l: usize, r: usize, n: i32): void {
    const r0 = <f64>this.rate.value;
    const r1 = <f64>this.rate.step(this.coef);
    let ph = this.phase + (r0 + r1) * 0.5 * <f64>n / this.fs;
    ph -= Math.floor(ph);
    this.phase = ph;
    const p = sin2pi(ph);
    const gl0 = this.gl, gr0 = this.gr;
    this.gl = panLeft(p);
    this.gr = panRight(p);
    stereoGainRamp(l, r, n, gl0, this.gl, gr0, this.gr);
  }
}
