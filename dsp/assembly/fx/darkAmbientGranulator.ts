// Dark Ambient Granulator: sixteen delay lines of 5-500 ms (spec 9) smear the sound into a dark
// cloud. `value` (0-100 %) is the amount: out = dry (1 - amount / 2) + 1.5 amount * cloud.
//
// The lines are sixteen taps on one low-passed mono buffer (RBJ low-pass from lib/biquad, 900 Hz,
// Q 0.707, run four frames per step by lib/space-biquad4: the "dark"). Tap i centres on
// 5 * 100^(i / 15) ms (5, 6.8, 9.3 ... 500 ms, evenly spread in log time) and plays grains: a
// sin^2 swell 0.3-1.5 s long, after which the tap takes a new delay within +-25 % of its centre
// and a new length (seeded RNG, so renders repeat). A delay only changes while its tap is silent,
// so nothing clicks. Even taps sit left, odd taps right (equal-power at +-70 %). 20 % of the
// cloud is fed back into the buffer, through the low-pass again, so the tail grows darker as it
// fades. Stability: each side sums 8 taps at 1/4, so the loop gain is at most
// 0.2 * 2 * (cos + sin)(0.3 pi / 4) < 0.53.
//
// Block-wise: every tap is at least one block long, so the block's cloud depends only on earlier
// frames; taps are read in place (DelayLine.readSpan) and summed four frames per f32x4 operation.

import { Effect } from "./effect";
import { BLOCK } from "../lib/constants";
import { Biquad, LOWPASS } from "../lib/biquad";
import { DelayLine } from "../lib/delayline";
import { Rng } from "../lib/rng";
import { Smoothed, blockCoef } from "../lib/smooth";
import { Biquad4 } from "../lib/space-biquad4";

const TAPS: i32 = 16;
export const DAG_MIN_MS: f64 = 5.0;
export const DAG_MAX_MS: f64 = 500.0;
const JITTER: f64 = 0.25;
const SWELL_MIN_S: f64 = 0.3;
const SWELL_SPAN_S: f64 = 1.2;
const LOWPASS_HZ: f64 = 900.0;
const FEEDBACK: f32 = 0.2;
const TAP_SCALE: f32 = 0.25;
const CLOUD_GAIN: f32 = 1.5;
const PAN: f64 = 0.7;
const SEED: u32 = 0x1b873593;

export class DarkAmbientGranulator extends Effect {
  line!: DelayLine;
  lp: Biquad4 = new Biquad4();
  rng: Rng = new Rng();
  amount: Smoothed = new Smoothed();
  centre: StaticArray<f64> = new StaticArray<f64>(TAPS);  // frames
  delay: StaticArray<i32> = new StaticArray<i32>(TAPS);
  cycle: StaticArray<i32> = new StaticArray<i32>(TAPS);   // swell length, frames
  at: StaticArray<i32> = new StaticArray<i32>(TAPS);      // frames into the swell
  gain: StaticArray<f32> = new StaticArray<f32>(TAPS);    // swell gain at the last block end
  tmp: StaticArray<f32> = new StaticArray<f32>(BLOCK + 4);
  even: StaticArray<f32> = new StaticArray<f32>(BLOCK + 4); // left-side taps
  odd: StaticArray<f32> = new StaticArray<f32>(BLOCK + 4);  // right-side taps
  feed: StaticArray<f32> = new StaticArray<f32>(BLOCK + 4);
  near: f32 = 0.0; // equal-power gain towards a tap's own side
  far: f32 = 0.0;  // and towards the other side
  coef: f32 = 0.1;

  init(fs: f64): void {
    super.init(fs);
    this.coef = blockCoef(fs);
    const q = new Biquad();
    q.design(LOWPASS, LOWPASS_HZ, 0.7071, fs);
    this.lp.setFrom(q);
    for (let i = 0; i < TAPS; i++) {
      const ms = DAG_MIN_MS * Math.pow(DAG_MAX_MS / DAG_MIN_MS, <f64>i / <f64>(TAPS - 1));
      this.centre[i] = ms * 0.001 * fs;
    }
    const th = (1.0 - PAN) * Math.PI * 0.25;
    this.near = <f32>Math.cos(th);
    this.far = <f32>Math.sin(th);
    const longest = <i32>Math.ceil(this.centre[TAPS - 1] * (1.0 + JITTER)) + BLOCK + 4;
    this.line = new DelayLine(longest);
  }

  set(value: f32, e1: f32, e2: f32, e3: f32): void {
    super.set(value, e1, e2, e3);
    this.amount.target = Mathf.min(Mathf.max(value * 0.01, 0.0), 1.0);
  }

  uniform(): f64 {
    return <f64>this.rng.next() * 0.5 + 0.5;
  }

  /** A new swell for tap i: delay within +-25 % of its centre, 0.3-1.5 s long. */
  newSwell(i: i32): void {
    const d = this.centre[i] * (1.0 - JITTER + 2.0 * JITTER * this.uniform());
    this.delay[i] = max(BLOCK, <i32>Math.round(d));
    this.cycle[i] = max(4 * BLOCK, <i32>Math.round((SWELL_MIN_S + SWELL_SPAN_S * this.uniform()) * this.fs));
    this.at[i] = 0;
  }

  reset(): void {
    this.amount.jump(this.amount.target);
    this.rng.seed(SEED);
    this.line.reset();
    this.lp.reset();
    for (let i = 0; i < TAPS; i++) {
      this.newSwell(i);
      // Start the taps at scattered points of their swells, so the cloud is there at once.
      this.at[i] = <i32>(this.uniform() * <f64>this.cycle[i]);
      this.gain[i] = swell(this.at[i], this.cycle[i]);
    }
  }

  process(l: usize, r: usize, n: i32): void {
    const a0 = this.amount.value;
    const a1 = this.amount.step(this.coef);
    const pe = changetype<usize>(this.even), po = changetype<usize>(this.odd);
    const tp = changetype<usize>(this.tmp);
    const nv = (n + 3) & ~3;
    memory.fill(pe, 0, <usize>nv << 2);
    memory.fill(po, 0, <usize>nv << 2);
    const inv: f32 = 1.0 / <f32>n;
    for (let i = 0; i < TAPS; i++) {
      const g0 = this.gain[i];
      const at = this.at[i] + n;
      const ending = at >= this.cycle[i];
      const g1: f32 = ending ? <f32>0.0 : swell(at, this.cycle[i]);
      this.at[i] = at;
      this.gain[i] = g1;
      if (g0 != 0.0 || g1 != 0.0) {
        if (nv != n) memory.fill(tp + (<usize>n << 2), 0, <usize>(nv - n) << 2);
        const src = nv == n ? this.line.readSpan(tp, this.delay[i], n) : readPadded(this.line, tp, this.delay[i], n);
        const acc = (i & 1) == 0 ? pe : po;
        const s = (g1 - g0) * inv * TAP_SCALE;
        const g = g0 * TAP_SCALE;
        let gv = f32x4(g + s, g + 2.0 * s, g + 3.0 * s, g + 4.0 * s);
        const gd = f32x4.splat(4.0 * s);
        for (let j = 0; j < nv; j += 4) {
          const o = <usize>j << 2;
          v128.store(acc + o, f32x4.add(v128.load(acc + o), f32x4.mul(v128.load(src + o), gv)));
          gv = f32x4.add(gv, gd);
        }
      }
      if (ending) this.newSwell(i); // silent now: the next swell starts at the next block
    }
    // Buffer input: mono input plus the fed-back cloud, low-passed.
    const fp = changetype<usize>(this.feed);
    const near = f32x4.splat(this.near), far = f32x4.splat(this.far);
    const half = f32x4.splat(0.5);
    const fb = f32x4.splat(FEEDBACK * 0.5 * (this.near + this.far));
    const n4 = n & ~3;
    for (let j = 0; j < n4; j += 4) {
      const o = <usize>j << 2;
      const x = f32x4.mul(f32x4.add(v128.load(l + o), v128.load(r + o)), half);
      v128.store(fp + o, f32x4.add(x, f32x4.mul(f32x4.add(v128.load(pe + o), v128.load(po + o)), fb)));
    }
    const fbs = FEEDBACK * 0.5 * (this.near + this.far);
    for (let j = n4; j < n; j++) {
      const o = <usize>j << 2;
      store<f32>(fp + o, (load<f32>(l + o) + load<f32>(r + o)) * 0.5 + (load<f32>(pe + o) + load<f32>(po + o)) * fbs);
    }
    this.lp.process(fp, n);
    // Flush to zero (lib/space-util ftz, four at a time): the loop must never reach denormals.
    const tiny = f32x4.splat(1e-18);
    for (let j = 0; j < nv; j += 4) {
      const o = <usize>j << 2;
      v128.store(fp + o, f32x4.sub(f32x4.add(v128.load(fp + o), tiny), tiny));
    }
    this.line.writeBlock(fp, n);
    // Mix: dry (1 - amount / 2) + 1.5 amount * cloud, amount ramped over the block.
    const sa = (a1 - a0) * inv;
    let av = f32x4(a0 + sa, a0 + 2.0 * sa, a0 + 3.0 * sa, a0 + 4.0 * sa);
    const ad = f32x4.splat(4.0 * sa);
    const one = f32x4.splat(1.0), cg = f32x4.splat(CLOUD_GAIN);
    for (let j = 0; j < n4; j += 4) {
      const o = <usize>j << 2;
      const e = v128.load(pe + o), d = v128.load(po + o);
      const dry = f32x4.sub(one, f32x4.mul(half, av));
      const wet = f32x4.mul(cg, av);
      const wl = f32x4.add(f32x4.mul(e, near), f32x4.mul(d, far));
      const wr = f32x4.add(f32x4.mul(e, far), f32x4.mul(d, near));
      v128.store(l + o, f32x4.add(f32x4.mul(v128.load(l + o), dry), f32x4.mul(wl, wet)));
      v128.store(r + o, f32x4.add(f32x4.mul(v128.load(r + o), dry), f32x4.mul(wr, wet)));
      av = f32x4.add(av, ad);
    }
    const nr = this.near, fr = this.far;
    for (let j = n4; j < n; j++) {
      const o = <usize>j << 2;
      const amt = a0 + sa * <f32>(j + 1);
      const e = load<f32>(pe + o), d = load<f32>(po + o);
      const dry: f32 = 1.0 - 0.5 * amt;
      const wet = CLOUD_GAIN * amt;
      store<f32>(l + o, load<f32>(l + o) * dry + (e * nr + d * fr) * wet);
      store<f32>(r + o, load<f32>(r + o) * dry + (e * fr + d * nr) * wet);
    }
  }
}

/** readBlock into dst, which the caller has zero-padded to whole vectors. */
function readPadded(line: DelayLine, dst: usize, d: i32, n: i32): usize {
  line.readBlock(dst, d, n);
  return dst;
}

/** sin^2 swell at frame `at` of a `len`-frame cycle: 0 at both ends, 1 in the middle. */
function swell(at: i32, len: i32): f32 {
  const s = Math.sin(Math.PI * <f64>at / <f64>len);
  return <f32>(s * s);
}
