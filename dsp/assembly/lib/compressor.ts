// Stereo-linked feed-forward compressor (the master stage), after Giannoulis, Massberg & Reiss,
// "Digital Dynamic Range Compressor Design - A Tutorial and Analysis", JAES 2012:
// soft-knee gain computer in dB, then a branching attack/release smoother on the gain reduction.

import {
  COMP_ATTACK, COMP_KNEE_DB, COMP_RATIO, COMP_RELEASE, COMP_THRESHOLD_DB,
} from "./constants";
import { fastExp2, fastLog2 } from "./fastmath";

const DB_PER_LOG2: f32 = 6.020599913279624; // 20 * log10(2)

export class Compressor {
  enabled: bool = true;
  reduction: f32 = 0.0; // current gain reduction, dB (>= 0)
  attack: f32 = 0.0;
  release: f32 = 0.0;
  kneeStart: f32 = 0.0; // linear level where the knee begins: below it nothing happens

  init(fs: f64): void {
    this.attack = <f32>Math.exp(-1.0 / (COMP_ATTACK * fs));
    this.release = <f32>Math.exp(-1.0 / (COMP_RELEASE * fs));
    this.kneeStart = <f32>Math.pow(10.0, (<f64>COMP_THRESHOLD_DB - <f64>COMP_KNEE_DB / 2.0) / 20.0);
  }

  reset(): void {
    this.reduction = 0.0;
  }

  process(l: usize, r: usize, n: i32): void {
    if (!this.enabled) return;
    const T = COMP_THRESHOLD_DB;
    const W = COMP_KNEE_DB;
    const slope: f32 = 1.0 / COMP_RATIO - 1.0;
    const att = this.attack;
    const rel = this.release;
    const kneeStart = this.kneeStart;
    let red = this.reduction;
    for (let i = 0; i < n; i++) {
      const pl = l + (<usize>i << 2);
      const pr = r + (<usize>i << 2);
      const a = load<f32>(pl);
      const b = load<f32>(pr);
      const x = Mathf.max(Mathf.abs(a), Mathf.abs(b));
      let want: f32 = 0.0;
      if (x > kneeStart) {
        const xdb = fastLog2(x) * DB_PER_LOG2;
        const over = xdb - T;
        if (over * 2.0 > W) {
          want = -over * slope * 1.0; // above the knee: reduce by over * (1 - 1/R)
        } else {
          const k = over + W * 0.5;
          want = -slope * k * k / (2.0 * W);
        }
      }
      // Attack when more reduction is wanted, release otherwise.
      const c = want > red ? att : rel;
      red = want + (red - want) * c;
      if (red > 1e-6) {
        const g = fastExp2(-red / DB_PER_LOG2);
        store<f32>(pl, a * g);
        store<f32>(pr, b * g);
      } else {
        red = 0.0;
      }
    }
    this.reduction = red;
  }
}
