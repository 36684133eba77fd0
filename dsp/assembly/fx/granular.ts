// Granular: re-plays short grains of the recent sound. `value` is the grain size in ms (5-500).
// The input is recorded into a 1 s stereo buffer; every half grain a new grain starts (seeded
// RNG, lib/rng): it replays, at the original pitch, the buffer from a random point 1-300 ms in
// the past, under a sine window (a polynomial, below), placed at a random position in the stereo
// field (equal-power, +-60 %). Sine windows at 50 % overlap are power-complementary, so the
// grain stream keeps the input's level; the grains' random offsets make their phases
// independent, so a steady tone turns into a shimmering cloud whose spectral spread is about
// 1 / (2 x grain size) (the RMS bandwidth of one sine-windowed grain). Output is fully wet.
//
// Block-wise: the block is recorded first, then each live grain (at most 8) adds its stretch of
// the block, so the inner loop is a windowed copy from contiguous memory.

import { Effect } from "./effect";
import { BLOCK } from "../lib/constants";
import { DelayLine } from "../lib/delay/delayline";
import { Rng } from "../lib/rng";
import { opaque, sameSamples } from "../lib/simd";

// sin(pi x) for x in [0, 1] as a polynomial in u = x (1 - x) (least-squares fit, error < 1.1e-5):
// symmetric about the centre and exactly 0 at both ends, and cheap in f32x4.
const W1: f32 = 3.1423527;
const W2: f32 = 3.12498034;
const W3: f32 = 1.22204849;

// @ts-ignore: decorator
@inline
function sineWindow(x: f32): f32 {
  const u = x - x * x;
  return u * (W1 + u * (W2 + u * W3));
}

const GRAINS: i32 = 8;
const BUFFER_S: f64 = 1.0;
const MIN_DELAY_S: f64 = 0.001;
const SPREAD_S: f64 = 0.3;
const PAN_SPREAD: f64 = 0.6;
const SEED: u32 = 0x2545f491;
const MONO_MAX: i32 = 1 << 30;

export class Granular extends Effect {
  left!: DelayLine;
  right!: DelayLine;
  rng: Rng = new Rng();
  // Grain pool.
  live: StaticArray<bool> = new StaticArray<bool>(GRAINS);
  pos: StaticArray<i32> = new StaticArray<i32>(GRAINS);    // frames played at block start (< 0: starts later)
  len: StaticArray<i32> = new StaticArray<i32>(GRAINS);
  delay: StaticArray<i32> = new StaticArray<i32>(GRAINS);
  gl: StaticArray<f32> = new StaticArray<f32>(GRAINS);
  gr: StaticArray<f32> = new StaticArray<f32>(GRAINS);
  untilNext: f64 = 0.0; // frames from the block start to the next grain
  monoRun: i32 = 0;     // newest frames recorded identically in both rings
  minDelay: i32 = 48;
  spread: f64 = 14400.0;

  init(fs: f64): void {
    super.init(fs);
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
    this.monoRun = MONO_MAX; // both rings cleared: identical
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
    const u = <f64>this.rng.next() * 0.5 + 0.5;
    this.delay[g] = this.minDelay + <i32>(u * this.spread);
    const p = <f64>this.rng.next() * PAN_SPREAD;
    const th = (p + 1.0) * Math.PI * 0.25;
    this.gl[g] = <f32>(Math.SQRT2 * Math.cos(th));
    this.gr[g] = <f32>(Math.SQRT2 * Math.sin(th));
  }

  process(l: usize, r: usize, n: i32): void {
    const a = this.left, b = this.right;
    a.writeBlockInline(l, n);
    b.writeBlockInline(r, n);
    // New grains: one every half grain, at exact (fractional-free) frame offsets in this block.
    const len = this.grainFrames();
    const hop = <f64>len * 0.5;
    while (this.untilNext < <f64>n) {
      this.spawn(<i32>this.untilNext, len);
      this.untilNext += hop;
    }
    this.untilNext -= <f64>n;

    // The block is recorded, so l / r can take the output directly: the first grain that
    // covers a frame range stores, later ones add (frames no grain covers are cleared first).
    const bl = changetype<usize>(a.buf), br = changetype<usize>(b.buf);
    const mask = a.mask;
    // A mono input reads one ring only: monoRun counts the newest frames in which both rings
    // hold the same samples, and a grain whose reads all fall inside them uses the left ring.
    this.monoRun = sameSamples(l, r, n) ? min(this.monoRun, MONO_MAX) + n : 0;
    const monoRun = this.monoRun;
    // Frame j of this block sits at ring index a.pos - (n - 1 - j).
    const last = a.pos - (n - 1);
    const c1 = opaque(f32x4.splat(W1)), c2 = opaque(f32x4.splat(W2)), c3 = opaque(f32x4.splat(W3));
    let first = true;
    for (let g = 0; g < GRAINS; g++) {
      if (!this.live[g]) continue;
      const p0 = this.pos[g];
      const gl = this.gl[g], gr = this.gr[g];
      const glen = this.len[g];
      const inv: f32 = 1.0 / <f32>glen;
      const j0 = max(0, -p0);
      const j1 = min(n, glen - p0);
      if (first && (j0 > 0 || j1 < n)) {
        memory.fill(l, 0, <usize>n << 2);
        memory.fill(r, 0, <usize>n << 2);
        first = false;
      }
      const k0 = (last + j0 - this.delay[g]) & mask;
      const count = j1 - j0;
      let j = j0;
      if (k0 + count <= mask + 1) {
        // Contiguous in the ring: four frames per step. Window x = (p0 + j) / len.
        const pa = bl + (<usize>k0 << 2) - (<usize>j0 << 2);
        const pb = (monoRun >= this.delay[g] + n ? bl : br) + (<usize>k0 << 2) - (<usize>j0 << 2);
        let x = f32x4.mul(f32x4.add(f32x4.splat(<f32>(p0 + j0)), f32x4(0.0, 1.0, 2.0, 3.0)), f32x4.splat(inv));
        const dx = f32x4.splat(4.0 * inv);
        const vl = f32x4.splat(gl), vr = f32x4.splat(gr);
        const end = j0 + (count & ~3);
        if (first) {
          for (; j < end; j += 4) {
            const o = <usize>j << 2;
            const u = f32x4.sub(x, f32x4.mul(x, x));
            const w = f32x4.mul(u, f32x4.add(c1, f32x4.mul(u, f32x4.add(c2, f32x4.mul(u, c3)))));
            v128.store(l + o, f32x4.mul(v128.load(pa + o), f32x4.mul(w, vl)));
            v128.store(r + o, f32x4.mul(v128.load(pb + o), f32x4.mul(w, vr)));
            x = f32x4.add(x, dx);
          }
        } else {
          for (; j < end; j += 4) {
            const o = <usize>j << 2;
            const u = f32x4.sub(x, f32x4.mul(x, x));
            const w = f32x4.mul(u, f32x4.add(c1, f32x4.mul(u, f32x4.add(c2, f32x4.mul(u, c3)))));
            v128.store(l + o, f32x4.add(v128.load(l + o), f32x4.mul(v128.load(pa + o), f32x4.mul(w, vl))));
            v128.store(r + o, f32x4.add(v128.load(r + o), f32x4.mul(v128.load(pb + o), f32x4.mul(w, vr))));
            x = f32x4.add(x, dx);
          }
        }
      }
      const base = last - this.delay[g];
      for (; j < j1; j++) {
        const w = sineWindow(<f32>(p0 + j) * inv);
        const k = <usize>((base + j) & mask) << 2;
        const o = <usize>j << 2;
        const pl = first ? <f32>0.0 : load<f32>(l + o), pr = first ? <f32>0.0 : load<f32>(r + o);
        store<f32>(l + o, pl + load<f32>(bl + k) * (w * gl));
        store<f32>(r + o, pr + load<f32>(br + k) * (w * gr));
      }
      first = false;
      const p1 = p0 + n;
      this.pos[g] = p1;
      if (p1 >= glen) this.live[g] = false;
    }
    if (first) {
      memory.fill(l, 0, <usize>n << 2);
      memory.fill(r, 0, <usize>n << 2);
    }
  }
}
