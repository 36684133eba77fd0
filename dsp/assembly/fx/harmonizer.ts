// Harmonizer: adds harmonics 2 to 5 of every sounding channel at gain 0.2/n (spec 9), times
// `value`/100, relative to the channel's own level (its gain times the mixer's tone scale).
// The four partials come from one precomputed wavetable per channel (sum of 0.2/n sin(n x)),
// so the cost is one table read per channel and sample (four channels per v128 gather). The partials are phase-locked to the
// channel's own oscillator, so they sit in a fixed relation to the tone's own harmonics. Tables holding only harmonics 2..4,
// 2..3 and 2 are used when 5f (or 4f, 3f) would pass 0.45 fs, so nothing aliases.

import { Effect } from "./effect";
import { channels, toneScale } from "../bus";
import { BLOCK, CHANNELS } from "../lib/constants";
import { blockCoef, Smoothed } from "../lib/smooth";
import { addLaneSums } from "../lib/simd";
import { incU32, pairLookup4 } from "../lib/mod/table";
import { TABLE_SIZE } from "../osc/wavetable";

const TOP: i32 = 5;
const MAX_PARTIAL: f64 = 0.45;

export class Harmonizer extends Effect {
  tables: StaticArray<usize> = new StaticArray<usize>(TOP + 1); // [m]: harmonics 2..m
  phases: StaticArray<u64> = new StaticArray<u64>(CHANNELS); // channel phase at block start
  gains: StaticArray<f32> = new StaticArray<f32>(CHANNELS);  // at block end
  g0: StaticArray<f32> = new StaticArray<f32>(CHANNELS);     // at block start
  starts: StaticArray<u32> = new StaticArray<u32>(CHANNELS); // u32 phase at block start
  incs: StaticArray<u32> = new StaticArray<u32>(CHANNELS);
  bases: StaticArray<u32> = new StaticArray<u32>(CHANNELS);  // pair table per channel
  vecs: StaticArray<f32> = new StaticArray<f32>(BLOCK * 4);  // per-sample lane values
  dg: StaticArray<f32> = new StaticArray<f32>(CHANNELS);     // per-sample gain step
  amount: Smoothed = new Smoothed();
  coef: f32 = 0.0;

  init(fs: f64): void {
    super.init(fs);
    this.coef = blockCoef(fs);
    // (value, slope) pairs: one 64-bit load gives both interpolation points.
    for (let m = 2; m <= TOP; m++) {
      const t = changetype<usize>(new StaticArray<f32>(TABLE_SIZE * 2));
      for (let i = 0; i < TABLE_SIZE; i++) {
        const a = partials(m, i), b = partials(m, i + 1);
        store<f32>(t + (<usize>i << 3), <f32>a);
        store<f32>(t + (<usize>i << 3), <f32>(b - a), 4);
      }
      this.tables[m] = t;
    }
  }

  set(value: f32, e1: f32, e2: f32, e3: f32): void {
    super.set(value, e1, e2, e3);
    this.amount.target = Mathf.min(Mathf.max(value, 0.0), 100.0) * 0.01;
  }

  reset(): void {
    this.amount.jump(this.amount.target);
    for (let c = 0; c < CHANNELS; c++) {
      this.phases[c] = channels[c].phase;
      this.gains[c] = 0.0;
    }
  }

  process(l: usize, r: usize, n: i32): void {
    const amount = this.amount.step(this.coef);
    let any = false;
    for (let c = 0; c < CHANNELS; c++) {
      const ch = channels[c];
      const base = ch.inc;
      let top = TOP;
      while (top >= 2 && <f64>top * base >= MAX_PARTIAL) top--;
      const g0 = this.gains[c];
      const g1 = top >= 2 && base > 0.0 ? ch.gain * toneScale * amount : <f32>0.0;
      this.gains[c] = g1;
      this.g0[c] = g0;
      // Phase-locked to the channel's oscillator: its phase was `start` when the block began and
      // is `end` now (the channel has rendered this block), so step evenly between the two. The
      // u64 difference keeps only the fraction of a cycle; the whole cycles come from the pitch.
      const start = this.phases[c];
      const end = ch.phase;
      this.phases[c] = end;
      this.bases[c] = <u32>this.tables[max(top, 2)];
      this.starts[c] = <u32>(start >>> 32);
      if (g0 == 0.0 && g1 == 0.0) {
        this.incs[c] = 0;
        continue;
      }
      any = true;
      const fracCycles = <f64>(end - start) / 18446744073709551616.0;
      const whole = Math.round(base * <f64>n - fracCycles);
      this.incs[c] = incU32((whole + fracCycles) / <f64>n);
    }
    if (!any) return;
    // SIMD: the four channels are the four lanes.
    let p = v128.load(changetype<usize>(this.starts));
    const inc = v128.load(changetype<usize>(this.incs));
    const bases = v128.load(changetype<usize>(this.bases));
    let g = v128.load(changetype<usize>(this.g0));
    // The gain step is read from memory in the loop (as a local its computation was moved into
    // the loop and redone every sample).
    const D = changetype<usize>(this.dg);
    v128.store(D, f32x4.mul(f32x4.sub(v128.load(changetype<usize>(this.gains)), g), f32x4.splat(1.0 / <f32>n)));
    const V = changetype<usize>(this.vecs);
    for (let i = 0; i < n; i++) {
      g = f32x4.add(g, v128.load(D));
      v128.store(V + (<usize>i << 4), f32x4.mul(pairLookup4(p, bases), g));
      p = i32x4.add(p, inc);
    }
    addLaneSums(V, n, l, r);
  }
}

/** sum over h = 2..m of 0.2/h sin(h x), x = 2 pi i / TABLE_SIZE. */
function partials(m: i32, i: i32): f64 {
  const x = 2.0 * Math.PI * <f64>i / <f64>TABLE_SIZE;
  let s = 0.0;
  for (let h = 2; h <= m; h++) s += 0.2 / <f64>h * Math.sin(<f64>h * x);
  return s;
}
