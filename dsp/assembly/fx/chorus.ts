// Chorus: three modulated delay voices (spec 9) around 14, 20 and 26 ms, each swept by its own
// sine LFO (0.43, 0.61 and 0.89 Hz, phases a third of a cycle apart). `value` (0-100 %) is the
// depth: the sweep reaches +-4 ms at 100 % (about +-0.5 semitone of drift; 30 % gives a gentle
// +-1.2 ms). The voices read the mono sum and sit left, centre and right (equal-power, +-60 %),
// which spreads the chorus across the stereo field; the dry signal keeps its own stereo.
// Out = 0.6 dry + 0.3 per voice. At 0 % the voices are fixed delays.
//
// Block-wise: the voices' delays (>= 10 ms) exceed a block and there is no feedback, so the
// block is written to the line first and the voices then read it with local indices
// (linear interpolation; the delay per voice is exact at block edges and ramps per frame).

import { Effect } from "./effect";
import { BLOCK } from "../lib/constants";
import { DelayLine } from "../lib/delay/delayline";
import { Smoothed, blockCoef } from "../lib/smooth";
import { tap, tap4 } from "../lib/delay/tap";
import { sin2pi } from "../lib/math";
import { opaque } from "../lib/simd";

const VOICES: i32 = 3;
const BASE_MS: StaticArray<f64> = [14.0, 20.0, 26.0];
const RATE_HZ: StaticArray<f64> = [0.43, 0.61, 0.89];
const PAN: StaticArray<f64> = [-0.6, 0.0, 0.6];
export const CHORUS_DEPTH_MS: f64 = 4.0;
const DRY: f32 = 0.6;
const WET: f32 = 0.3;

export class Chorus extends Effect {
  line!: DelayLine;
  depth: Smoothed = new Smoothed();
  phase: StaticArray<f64> = new StaticArray<f64>(VOICES);
  d: StaticArray<f32> = new StaticArray<f32>(VOICES); // delay (frames) at the last block end
  gl: StaticArray<f32> = new StaticArray<f32>(VOICES);
  gr: StaticArray<f32> = new StaticArray<f32>(VOICES);
  mono: StaticArray<f32> = new StaticArray<f32>(BLOCK);
  coef: f32 = 0.1;

  init(fs: f64): void {
    super.init(fs);
    this.coef = blockCoef(fs);
    const frames = <i32>Math.ceil((BASE_MS[VOICES - 1] + CHORUS_DEPTH_MS + 1.0) * 0.001 * fs) + BLOCK;
    this.line = new DelayLine(frames);
    for (let v = 0; v < VOICES; v++) {
      const th = (PAN[v] + 1.0) * Math.PI * 0.25;
      this.gl[v] = <f32>(<f64>WET * Math.SQRT2 * Math.cos(th));
      this.gr[v] = <f32>(<f64>WET * Math.SQRT2 * Math.sin(th));
    }
  }

  set(value: f32, e1: f32, e2: f32, e3: f32): void {
    super.set(value, e1, e2, e3);
    this.depth.target = Mathf.min(Mathf.max(value * 0.01, 0.0), 1.0);
  }

  /** Delay in frames of voice v at LFO phase ph, depth 0..1. */
  delayAt(v: i32, ph: f64, depth: f64): f32 {
    const ms = BASE_MS[v] + CHORUS_DEPTH_MS * depth * sin2pi(ph);
    return <f32>(ms * 0.001 * this.fs);
  }

  reset(): void {
    this.depth.jump(this.depth.target);
    const depth = <f64>this.depth.value;
    for (let v = 0; v < VOICES; v++) {
      const ph = <f64>v / <f64>VOICES;
      this.phase[v] = ph;
      this.d[v] = this.delayAt(v, ph, depth);
    }
    this.line.reset();
  }

  process(l: usize, r: usize, n: i32): void {
    const depth = <f64>this.depth.step(this.coef);
    const m = changetype<usize>(this.mono);
    const hv = f32x4.splat(0.5);
    const nm = n & ~3;
    for (let j = 0; j < nm; j += 4) {
      const o = <usize>j << 2;
      v128.store(m + o, f32x4.mul(f32x4.add(v128.load(l + o), v128.load(r + o)), hv));
    }
    for (let j = nm; j < n; j++) {
      const o = <usize>j << 2;
      store<f32>(m + o, (load<f32>(l + o) + load<f32>(r + o)) * 0.5);
    }
    const line = this.line;
    line.writeBlockInline(m, n);
    const inv: f32 = 1.0 / <f32>n;
    const buf = changetype<usize>(line.buf);
    const mask = line.mask;
    // Frame j sits at ring index last + j; a delay D frames reads index last + j - D.
    const last = line.pos - (n - 1);
    // Read positions are kept as (index + n0) - D with a positive offset n0, so the integer
    // part is a plain truncation.
    const n0 = <f32>(mask + 1);
    let p0: f32 = 0.0, p1: f32 = 0.0, p2: f32 = 0.0, s0: f32 = 0.0, s1: f32 = 0.0, s2: f32 = 0.0;
    for (let v = 0; v < VOICES; v++) {
      let ph = this.phase[v] + RATE_HZ[v] * <f64>n / this.fs;
      ph -= Math.floor(ph);
      this.phase[v] = ph;
      const d1 = this.delayAt(v, ph, depth);
      const step: f32 = 1.0 - (d1 - this.d[v]) * inv; // read position advance per frame
      const start = n0 + <f32>(last & mask) - this.d[v];
      this.d[v] = d1;
      if (v == 0) { p0 = start; s0 = step; } else if (v == 1) { p1 = start; s1 = step; } else { p2 = start; s2 = step; }
    }
    // Four frames at a time: positions as f32x4, integer parts and fractions as vectors, the
    // eight ring samples per voice fetched lane by lane (v128.load32_lane).
    const four = f32x4.splat(4.0);
    const ramp = opaque(f32x4(0.0, 1.0, 2.0, 3.0));
    const magic = opaque(f32x4.splat(8388608.0));
    const dry = opaque(f32x4.splat(DRY));
    let q0 = f32x4(p0 + s0 - 1.0, p0 + 2.0 * s0 - 1.0, p0 + 3.0 * s0 - 1.0, p0 + 4.0 * s0 - 1.0);
    let q1 = f32x4(p1 + s1 - 1.0, p1 + 2.0 * s1 - 1.0, p1 + 3.0 * s1 - 1.0, p1 + 4.0 * s1 - 1.0);
    let q2 = f32x4(p2 + s2 - 1.0, p2 + 2.0 * s2 - 1.0, p2 + 3.0 * s2 - 1.0, p2 + 4.0 * s2 - 1.0);
    const d0 = f32x4.mul(f32x4.splat(s0), four), d1 = f32x4.mul(f32x4.splat(s1), four), d2 = f32x4.mul(f32x4.splat(s2), four);
    const gl0 = f32x4.splat(this.gl[0]), gl1 = f32x4.splat(this.gl[1]), gl2 = f32x4.splat(this.gl[2]);
    const gr0 = f32x4.splat(this.gr[0]), gr1 = f32x4.splat(this.gr[1]), gr2 = f32x4.splat(this.gr[2]);
    const n4 = n & ~3;
    for (let j = 0; j < n4; j += 4) {
      const v0 = tap4(buf, mask, ramp, magic, q0);
      const v1 = tap4(buf, mask, ramp, magic, q1);
      const v2 = tap4(buf, mask, ramp, magic, q2);
      q0 = f32x4.add(q0, d0); q1 = f32x4.add(q1, d1); q2 = f32x4.add(q2, d2);
      const o = <usize>j << 2;
      const wl = f32x4.add(f32x4.add(f32x4.mul(gl0, v0), f32x4.mul(gl1, v1)), f32x4.mul(gl2, v2));
      const wr = f32x4.add(f32x4.add(f32x4.mul(gr0, v0), f32x4.mul(gr1, v1)), f32x4.mul(gr2, v2));
      v128.store(l + o, f32x4.add(f32x4.mul(dry, v128.load(l + o)), wl));
      v128.store(r + o, f32x4.add(f32x4.mul(dry, v128.load(r + o)), wr));
    }
    for (let j = n4; j < n; j++) {
      const t = <f32>(j + 1);
      const v0 = tap(buf, mask, p0 + s0 * t - 1.0);
      const v1 = tap(buf, mask, p1 + s1 * t - 1.0);
      const v2 = tap(buf, mask, p2 + s2 * t - 1.0);
      const o = <usize>j << 2;
      store<f32>(l + o, DRY * load<f32>(l + o) + this.gl[0] * v0 + this.gl[1] * v1 + this.gl[2] * v2);
      store<f32>(r + o, DRY * load<f32>(r + o) + this.gr[0] * v0 + this.gr[1] * v1 + this.gr[2] * v2);
    }
  }
}
