// 360° Pan: the sound circles the head at `value` Hz (0.1-20). The azimuth phi turns at the set
// rate; its left-right component sin(phi) drives an equal-power pan (lib/mod/pan), so the
// level summed over both ears never changes while the sound moves. The phase is f64 (no drift);
// the gains are exact at block edges and ramp linearly inside (at 20 Hz the ramp error is < 0.1 dB).

import { LfoEffect } from "./lfoEffect";
import { panLeft, panRight, stereoGainRamp } from "../lib/mod/pan";
import { sin2pi } from "../lib/math";

export class Pan360 extends LfoEffect {
  gl: f32 = 1.0;
  gr: f32 = 1.0;

  reset(): void {
    this.resetSweep();
    this.gl = 1.0; // azimuth 0: straight ahead, both ears at unity
    this.gr = 1.0;
  }

  process(l: usize, r: usize, n: i32): void {
    const ph = this.advance(n);
    const p = sin2pi(ph);
    const gl0 = this.gl, gr0 = this.gr;
    this.gl = panLeft(p);
    this.gr = panRight(p);
    stereoGainRamp(l, r, n, gl0, this.gl, gr0, this.gr);
  }
}
