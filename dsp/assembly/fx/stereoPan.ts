// Stereo Pan: a static equal-power position, value -100 (left) .. 100 (right), 0 = unchanged.
// Gains follow lib/mod/pan (sqrt(2) cos / sin of (p + 1) pi / 4, so L^2 + R^2 is constant); the
// position is smoothed per block and the gains ramp inside the block, so moving it never clicks.

import { Effect } from "./effect";
import { Smoothed, blockCoef } from "../lib/smooth";
import { panLeft, panRight, stereoGainRamp } from "../lib/mod/pan";

export class StereoPan extends Effect {
  pos: Smoothed = new Smoothed();
  gl: f32 = 1.0;
  gr: f32 = 1.0;
  coef: f32 = 0.1;

  init(fs: f64): void {
    super.init(fs);
    this.coef = blockCoef(fs);
  }

  set(value: f32, e1: f32, e2: f32, e3: f32): void {
    super.set(value, e1, e2, e3);
    this.pos.target = Mathf.min(Mathf.max(value * 0.01, -1.0), 1.0);
  }

  reset(): void {
    this.pos.jump(this.pos.target);
    this.gl = panLeft(<f64>this.pos.value);
    this.gr = panRight(<f64>this.pos.value);
  }

  process(l: usize, r: usize, n: i32): void {
    const p0 = this.pos.value;
    const p1 = this.pos.step(this.coef);
    const gl0 = this.gl, gr0 = this.gr;
    if (p1 != p0) {
      this.gl = panLeft(<f64>p1);
      this.gr = panRight(<f64>p1);
    }
    stereoGainRamp(l, r, n, gl0, this.gl, gr0, this.gr);
  }
}
