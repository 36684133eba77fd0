// Granular: re-plays short grains of the recent sound. `value` is the grain size in ms (5-500).
// The input is recorded into a 1 s stereo buffer; every half grain a new grain starts (seeded
// RNG, lib/rng): it replays, at the original pitch, the buffer from a random point 1-300 ms in
// the past, under a sine window (lib/space-window), placed at a random position in the stereo
// field (equal-power, +-60 %). Sine windows at 50 % overlap are power-complementary, so the
// grain stream keeps the input's level; the grains' random offsets make their phases
// independent, so a steady tone turns into a shimmering cloud whose spectral spread is about
// 1 / (2 x grain size) (the RMS bandwidth of one sine-windowed grain). Output is fully wet.
//
// Block-wise: the block is recorded first, then each live grain (at most 8) adds its stretch of
// the block, so the inner loop is a windowed copy from contiguous memory.

import { Effect } from "./effect";
import { BLOCK } from "../lib/constants";
import { DelayLine } from "../lib/delayline";
import { Rng } from "../lib/rng";
import { buildSineWindow, sineWindowAt, WINDOW_SIZE } from "../lib/space-window";

const GRAINS: i32 = 8;
const BUFFER_S: f64 = 1.0;
const MIN_DELAY_S: f64 = 0.001;
const SPREAD_S: f64 = 0.3;
const PAN_SPREAD: f64 = 0.6;
const SEED: u32 = 0x2545f491;

export class Granular extends Effect {
  left!: DelayLine;
  right!: DelayLine;
  rng: Rng = new Rng();
  // Grain pool.
  live: StaticArray<bool> = new StaticArray<bool>(GRAINS);
  pos: StaticArray<i32> = new StaticArray<i32>(GRAINS);    // frames played at block start (< 0: starts later)
  len: StaticArray<i32> = new StaticArray<i32>(GRAINS);
  delay: StaticArray<i32> = new StaticArray<i32>(GRAINS);
  wstep: StaticArray<f32> = new StaticArray<f32>(GRAINS);  // window table steps per frame
  gl: StaticArray<f32> = new StaticArray<f32>(GRAINS);
  gr: StaticArray<f32> = new StaticArray<f32>(GRAINS);
  accL: StaticArray<f32> = new StaticArray<f32>(BLOCK);
  accR: StaticArray<f32> = new StaticArray<f32>(BLOCK);
  untilNext: f64 = 0.0; // frames from the block start to the next grain
  minDelay: i32 = 48;
  spread: f64 = 14400.0;

  init(fs: f64): void {
    super.init(fs);
    buildSineWindow();
    this.minDelay = max(1, <i32>Math.round(MIN_DELAY_S * fs));
    this.spread = SPREAD_S * fs;
    const frames = <i32>Math.ceil(BUFFER_S * fs) + BLOCK;
    this.left = new DelayLine(frames);
    this.right = new DelayLine(frames);
  }

  reset(): void {
    this.rng.seed(SEED);
    for (let g = 0; g < GRAINS; g++) this.live[g] = false;
    this.untilNext = 0.0;
    this.left.reset();
    this.right.reset();
  }

  grainFrames(): i32 {
    const ms = Math.min(Math.max(<f64>this.value, 1.0), 500.0);
    return max(8, <i32>Math.round(ms * 0.001 * this.fs));
  }

  spawn(offset: i32, len: i32): void {
    let g = 0;
    while (g < GRAINS && this.live[g]) g++;
    if (g == GRAINS) return; // pool full (only after a sudden size change): skip this grain
    this.live[g] = true;
    this.pos[g] = -offset;
    this.len[g] = len;
    this.wstep[g] = <f32>WINDOW_SIZE / <f32>len;
    const u = <f64>this.rng.next() * 0.5 + 0.5;
    this.delay[g] = this.minDelay + <i32>(u * this.spread);
    const p = <f64>this.rng.next() * PAN_SPREAD;
    const th = (p + 1.0) * Math.PI * 0.25;
    this.gl[g] = <f32>(Math.SQRT2 * Math.cos(th));
    this.gr[g] = <f32>(Math.SQRT2 * Math.sin(th));
  }

  process(l: usize, r: usize, n: i32): void {
    const a = this.left, b = this.right;
    a.writeBlock(l, n);
    b.writeBlock(r, n);
    // New grains: one every half grain, at exact (fractional-free) frame offsets in this block.
    const len = this.grainFrames();
    const hop = <f64>len * 0.5;
    while (this.untilNext < <f64>n) {
      this.spawn(<i32>this.untilNext, len);
      this.untilNext += hop;
    }
    this.untilNext -= <f64>n;

    const al = changetype<usize>(this.accL), ar = changetype<usize>(this.accR);
    memory.fill(al, 0, <usize>n << 2);
    memory.fill(ar, 0, <usize>n << 2);
    const bl = changetype<usize>(a.buf), br = changetype<usize>(b.buf);
    const mask = a.mask;
    // Frame j of this block sits at ring index a.pos - (n - 1 - j).
    const last = a.pos - (n - 1);
    for (let g = 0; g < GRAINS; g++) {
      if (!this.live[g]) continue;
      const p0 = this.pos[g];
      const gl = this.gl[g], gr = this.gr[g], ws = this.wstep[g];
      const glen = this.len[g];
      const j0 = max(0, -p0);
      const j1 = min(n, glen - p0);
      const base = last - this.delay[g];
      for (let j = j0; j < j1; j++) {
        const w = sineWindowAt(<f32>(p0 + j) * ws);
        const k = <usize>((base + j) & mask) << 2;
        const o = <usize>j << 2;
        store<f32>(al + o, load<f32>(al + o) + load<f32>(bl + k) * (w * gl));
        store<f32>(ar + o, load<f32>(ar + o) + load<f32>(br + k) * (w * gr));
      }
      const p1 = p0 + n;
      this.pos[g] = p1;
      if (p1 >= glen) this.live[g] = false;
    }
    memory.copy(l, al, <usize>n << 2);
    memory.copy(r, ar, <usize>n << 2);
  }
}
