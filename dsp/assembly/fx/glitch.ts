// Glitch: random stutters and drop-outs on a grid of `value` events per second (0.5-20 Hz).
// At each grid point a seeded draw (lib/rng, fixed seed: every render is identical) picks what
// the next 1/value s does: pass (30 %), drop out (25 %), stutter (30 %: the slice just before the
// event, 1/2, 1/3, 1/4 or 1/8 of the event long and at most 250 ms, repeats until the event
// ends) or reverse stutter (15 %: the same slice played backwards, repeated).
// Click-free edges: the dry gain moves at most 1/F per frame (F = 2.5 ms fades), and every
// repetition of a slice fades in and out over F (also at the event's end), so no jump ever
// reaches the output. The grid is kept in f64 frames, so event times never drift.
// Speed: steady pass and drop-out need no per-frame work, and a stutter away from its fades is a
// plain (forward or reversed) copy of the slice, four frames per step.

import { Effect } from "./effect";
import { DelayLine } from "../lib/delay/delayline";
import { Rng } from "../lib/rng";

const FADE_S: f64 = 0.0025;
const MAX_SLICE_S: f64 = 0.25;
const MIN_RATE: f64 = 0.5;
const SEED: u32 = 0x61c88647;
const DIVS: StaticArray<i32> = [2, 3, 4, 8, 4];

export const GLITCH_PASS: i32 = 0;
export const GLITCH_DROP: i32 = 1;
export const GLITCH_STUTTER: i32 = 2;
export const GLITCH_REVERSE: i32 = 3;

export class Glitch extends Effect {
  left!: DelayLine;
  right!: DelayLine;
  rng: Rng = new Rng();
  fade: i32 = 120;
  maxSlice: i32 = 12000;
  nextStart: f64 = 0.0;  // grid time of the next event, frames since reset
  clock: f64 = 0.0;      // frames since reset at the current event's start
  len: i32 = 0;          // current event length, frames
  elapsed: i32 = 0;      // frames into the current event
  kind: i32 = GLITCH_PASS;
  slice: i32 = 1;        // stutter slice length, frames
  rp: i32 = 0;           // position inside the slice repetition
  gain: f32 = 1.0;       // dry gain
  target: f32 = 1.0;

  init(fs: f64): void {
    super.init(fs);
    this.fade = max(1, <i32>Math.round(FADE_S * fs));
    this.maxSlice = <i32>Math.round(MAX_SLICE_S * fs);
    const frames = <i32>Math.ceil(fs / MIN_RATE) + this.maxSlice + 4;
    this.left = new DelayLine(frames);
    this.right = new DelayLine(frames);
  }

  reset(): void {
    this.rng.seed(SEED);
    this.nextStart = 0.0;
    this.len = 0;
    this.elapsed = 0;
    this.kind = GLITCH_PASS;
    this.gain = 1.0;
    this.target = 1.0;
    this.left.reset();
    this.right.reset();
  }

  /** Draws the next event at the grid point this.nextStart. */
  nextEvent(): void {
    const rate = Math.min(Math.max(<f64>this.value, MIN_RATE), 40.0);
    const start = this.nextStart;
    this.nextStart = start + this.fs / rate;
    this.len = max(1, <i32>(Math.round(this.nextStart) - Math.round(start)));
    this.elapsed = 0;
    this.rp = 0;
    const u = this.rng.next() * 0.5 + 0.5; // [0, 1)
    this.kind = u < 0.3 ? GLITCH_PASS : (u < 0.55 ? GLITCH_DROP : (u < 0.85 ? GLITCH_STUTTER : GLITCH_REVERSE));
    const k = DIVS[<i32>((this.rng.next() * 0.5 + 0.5) * 4.999)];
    this.slice = min(this.maxSlice, max(4 * this.fade, this.len / k));
    this.target = this.kind == GLITCH_PASS ? 1.0 : 0.0;
  }

  process(l: usize, r: usize, n: i32): void {
    const a = this.left, b = this.right;
    // Record the block first; a stutter reads at least one frame back from the frame it makes.
    a.writeBlockInline(l, n);
    b.writeBlockInline(r, n);
    const ba = changetype<usize>(a.buf), bb = changetype<usize>(b.buf);
    const mask = a.mask;
    const last = a.pos - (n - 1); // ring index of frame 0 of this block
    const fade = this.fade;
    const step: f32 = 1.0 / <f32>fade;
    let i = 0;
    while (i < n) {
      if (this.elapsed >= this.len) this.nextEvent();
      const seg = min(n - i, this.len - this.elapsed);
      const t = this.target;
      if (this.gain == t && this.kind < GLITCH_STUTTER) {
        // Steady pass (unity) or steady drop-out (silence): no per-frame work.
        if (t == 0.0) {
          memory.fill(l + (<usize>i << 2), 0, <usize>seg << 2);
          memory.fill(r + (<usize>i << 2), 0, <usize>seg << 2);
        }
        this.elapsed += seg;
        i += seg;
        continue;
      }
      let g = this.gain;
      const stutter = this.kind >= GLITCH_STUTTER;
      const forward = this.kind == GLITCH_STUTTER;
      const ls = this.slice, len = this.len;
      let e = this.elapsed, rp = this.rp;
      const kEnd = i + seg;
      let k = i;
      while (k < kEnd) {
        if (stutter && g == 0.0 && t == 0.0 && rp >= fade) {
          // Inside a repetition, away from every fade: the output is the slice itself, read
          // forwards or backwards one frame per frame. Copied four frames per step.
          const m = min(min(kEnd - k, ls - fade - rp), len - fade - e);
          const q = forward ? rp : ls - 1 - rp;
          const i0 = last + k - (e + ls - q); // ring index of frame k's sample
          const lo = forward ? i0 : i0 - (m - 1);
          if (m >= 4 && (lo & mask) + m <= mask + 1) {
            const m4 = m & ~3;
            const ra = ba + (<usize>(lo & mask) << 2), rb = bb + (<usize>(lo & mask) << 2);
            const ol = l + (<usize>k << 2), orr = r + (<usize>k << 2);
            if (forward) {
              for (let j = 0; j < m4; j += 4) {
                const o = <usize>j << 2;
                v128.store(ol + o, v128.load(ra + o));
                v128.store(orr + o, v128.load(rb + o));
              }
              for (let j = m4; j < m; j++) {
                const o = <usize>j << 2;
                store<f32>(ol + o, load<f32>(ra + o));
                store<f32>(orr + o, load<f32>(rb + o));
              }
            } else {
              // Frame k + j takes ring sample lo + m - 1 - j.
              for (let j = 0; j < m4; j += 4) {
                const o = <usize>j << 2, src = <usize>(m - 4 - j) << 2;
                const a = v128.load(ra + src), b = v128.load(rb + src);
                v128.store(ol + o, i32x4.shuffle(a, a, 3, 2, 1, 0));
                v128.store(orr + o, i32x4.shuffle(b, b, 3, 2, 1, 0));
              }
              for (let j = m4; j < m; j++) {
                const o = <usize>j << 2, src = <usize>(m - 1 - j) << 2;
                store<f32>(ol + o, load<f32>(ra + src));
                store<f32>(orr + o, load<f32>(rb + src));
              }
            }
            k += m;
            e += m;
            rp += m;
            if (rp >= ls) rp = 0;
            continue;
          }
        }
        const o = <usize>k << 2;
        // Dry gain: a linear ramp of at most 1/F per frame towards the event's target.
        g = g < t ? Mathf.min(t, g + step) : Mathf.max(t, g - step);
        let yl = load<f32>(l + o) * g, yr = load<f32>(r + o) * g;
        if (stutter) {
          // Slice frame q is the frame ls - q before the event start: now - (e + ls - q).
          const q = forward ? rp : ls - 1 - rp;
          const idx = <usize>((last + k - (e + ls - q)) & mask) << 2;
          const edge = min(min(rp, ls - 1 - rp), len - 1 - e);
          const w = edge >= fade ? <f32>1.0 : <f32>edge * step;
          yl += load<f32>(ba + idx) * w;
          yr += load<f32>(bb + idx) * w;
          rp = rp + 1 >= ls ? 0 : rp + 1;
        }
        e++;
        store<f32>(l + o, yl);
        store<f32>(r + o, yr);
        k++;
      }
      this.gain = g;
      this.elapsed = e;
      this.rp = rp;
      i += seg;
    }
  }
}
