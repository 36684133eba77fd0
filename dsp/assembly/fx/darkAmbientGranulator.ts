// Dark Ambient Granulator: sixteen delay lines of 5-500 ms (spec 9) smear the sound into a dark
// cloud. `value` (0-100 %) is the amount: out = dry (1 - amount / 2) + 1.5 amount * cloud.
//
// The lines are sixteen taps on one low-passed mono buffer (RBJ low-pass from lib/filter/biquad,
// 900 Hz, Q 0.707, run four frames per step by lib/filter/biquad4: the "dark"). Tap i centres on
// 5 * 100^(i / 15) ms (5, 6.8, 9.3 ... 500 ms, evenly spread in log time) and plays grains: a
// sin^2 swell 0.3-1.5 s long, after which the tap takes a new delay within +-25 % of its centre
// and a new length (seeded RNG, so renders repeat). A delay only changes while its tap is silent,
// so nothing clicks. Even taps sit left, odd taps right (equal-power at +-70 %). 20 % of the
// cloud is fed back into the buffer, through the low-pass again, so the tail grows darker as it
// fades. Stability: each side sums 8 taps at 1/4, so the loop gain is at most
// 0.2 * 2 * (cos + sin)(0.3 pi / 4) < 0.53.
//
// Block-wise: every tap is at least one block long, so the block's cloud depends only on earlier
// frames; taps are read in place (DelayLine.readSpan) and summed four frames per f32x4 operation,
// four taps per pass over a side's accumulator. The swell gains advance per block by a rotation
// of (cos, sin) (no sine call per tap and block). Buffer input and the mix share one pass.

import { Effect } from "./effect";
import { BLOCK } from "../lib/constants";
import { Biquad, LOWPASS } from "../lib/filter/biquad";
import { DelayLine } from "../lib/delay/delayline";
import { Rng } from "../lib/rng";
import { Smoothed, blockCoef } from "../lib/smooth";
import { Biquad4 } from "../lib/filter/biquad4";
import { opaque } from "../lib/simd";

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
  // sin / cos of the swell angle pi at / cycle, advanced per block by a rotation (no library
  // call per block): rot* = cos / sin of pi BLOCK / cycle.
  sn: StaticArray<f64> = new StaticArray<f64>(TAPS);
  cs: StaticArray<f64> = new StaticArray<f64>(TAPS);
  rotC: StaticArray<f64> = new StaticArray<f64>(TAPS);
  rotS: StaticArray<f64> = new StaticArray<f64>(TAPS);
  tmp: StaticArray<f32> = new StaticArray<f32>(TAPS * (BLOCK + 4)); // per-tap copy of a wrapped span
  zeros: StaticArray<f32> = new StaticArray<f32>(BLOCK + 4);        // source of the padding taps
  // This block's live taps per side (0 = left/even, 1 = right/odd): source, start gain, step.
  src: StaticArray<usize> = new StaticArray<usize>(TAPS + 8);
  g0s: StaticArray<f32> = new StaticArray<f32>(TAPS + 8);
  steps: StaticArray<f32> = new StaticArray<f32>(TAPS + 8);
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
    const w = Math.PI * <f64>BLOCK / <f64>this.cycle[i];
    this.rotC[i] = Math.cos(w);
    this.rotS[i] = Math.sin(w);
    this.sn[i] = 0.0;
    this.cs[i] = 1.0;
  }

  /** sin / cos of the swell angle from tap i's position (exact; for the rare off-grid cases). */
  setAngle(i: i32): void {
    const th = Math.PI * <f64>this.at[i] / <f64>this.cycle[i];
    this.sn[i] = Math.sin(th);
    this.cs[i] = Math.cos(th);
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
      this.setAngle(i);
      this.gain[i] = swell(this.at[i], this.cycle[i]);
    }
  }

  process(l: usize, r: usize, n: i32): void {
    const a0 = this.amount.value;
    const a1 = this.amount.step(this.coef);
    const pe = changetype<usize>(this.even), po = changetype<usize>(this.odd);
    const nv = (n + 3) & ~3;
    const inv: f32 = 1.0 / <f32>n;
    // Live taps of each side go to slots side * 12 + k (k < 8, padded to a multiple of 4).
    const srcs = changetype<usize>(this.src), gs = changetype<usize>(this.g0s), ss = changetype<usize>(this.steps);
    let countE = 0, countO = 0;
    const lbuf = changetype<usize>(this.line.buf), lmask = this.line.mask, lpos1 = this.line.pos + 1;
    for (let i = 0; i < TAPS; i++) {
      const g0 = unchecked(this.gain[i]);
      const at = unchecked(this.at[i]) + n;
      const cyc = unchecked(this.cycle[i]);
      const ending = at >= cyc;
      unchecked((this.at[i] = at));
      let g1: f32 = 0.0;
      if (!ending) {
        if (n == BLOCK) {
          // Advance the swell angle by pi BLOCK / cycle: g = sin^2.
          const c = unchecked(this.cs[i]), sv = unchecked(this.sn[i]);
          const rc = unchecked(this.rotC[i]), rs = unchecked(this.rotS[i]);
          const s1 = sv * rc + c * rs;
          unchecked((this.cs[i] = c * rc - sv * rs));
          unchecked((this.sn[i] = s1));
          g1 = <f32>(s1 * s1);
        } else {
          this.setAngle(i);
          g1 = swell(at, cyc);
        }
      }
      unchecked((this.gain[i] = g1));
      if (g0 != 0.0 || g1 != 0.0) {
        const tp = changetype<usize>(this.tmp) + <usize>(i * (BLOCK + 4)) * 4;
        if (nv != n) memory.fill(tp + (<usize>n << 2), 0, <usize>(nv - n) << 2);
        const d = unchecked(this.delay[i]);
        // DelayLine.readSpan, inlined: in place when the span is contiguous in the ring.
        const start = (lpos1 - d) & lmask;
        const src = nv == n && start + n <= lmask + 1 ? lbuf + (<usize>start << 2) : readPadded(this.line, tp, d, n);
        const slot = (i & 1) == 0 ? countE++ : 12 + countO++;
        const o = <usize>slot << 2;
        store<usize>(srcs + o, src);
        store<f32>(gs + o, g0 * TAP_SCALE);
        store<f32>(ss + o, (g1 - g0) * inv * TAP_SCALE);
      }
      if (ending) this.newSwell(i); // silent now: the next swell starts at the next block
    }
    // Sum each side's taps four at a time (the accumulator is read and written once per four
    // taps); padding taps read zeros at gain 0.
    const z = changetype<usize>(this.zeros);
    for (let side = 0; side < 2; side++) {
      const count = side == 0 ? countE : countO;
      const base = side == 0 ? 0 : 12;
      const acc = side == 0 ? pe : po;
      const padded = (count + 3) & ~3;
      for (let k = count; k < padded; k++) {
        const o = <usize>(base + k) << 2;
        store<usize>(srcs + o, z);
        store<f32>(gs + o, 0.0);
        store<f32>(ss + o, 0.0);
      }
      if (padded == 0) memory.fill(acc, 0, <usize>nv << 2);
      for (let k = 0; k < padded; k += 4) {
        const o = <usize>(base + k) << 2;
        sum4(acc, k == 0, nv, srcs + o, gs + o, ss + o);
      }
    }
    // One pass over the block: the buffer input (mono input plus the fed-back cloud) and the
    // mix, dry (1 - amount / 2) + 1.5 amount * cloud, amount ramped over the block.
    // The buffer input goes straight into the ring when the block is contiguous there (every
    // tap has been summed already, so nothing reads that span any more).
    let fp = this.line.writeSpan(n);
    const direct = fp != 0;
    if (!direct) fp = changetype<usize>(this.feed);
    const half = opaque(f32x4.splat(0.5));
    const fbs: f32 = FEEDBACK * 0.5 * (this.near + this.far);
    const fb = f32x4.splat(fbs);
    const sa = (a1 - a0) * inv;
    const nr = this.near, fr = this.far;
    // Ramped gains: dry, near * wet, far * wet.
    const ramp = f32x4(1.0, 2.0, 3.0, 4.0);
    const av = f32x4.add(f32x4.splat(a0), f32x4.mul(ramp, f32x4.splat(sa)));
    let dry = f32x4.sub(f32x4.splat(1.0), f32x4.mul(half, av));
    let nw = f32x4.mul(av, f32x4.splat(CLOUD_GAIN * nr));
    let fw = f32x4.mul(av, f32x4.splat(CLOUD_GAIN * fr));
    const dd = f32x4.splat(-2.0 * sa), dn = f32x4.splat(4.0 * sa * CLOUD_GAIN * nr), df = f32x4.splat(4.0 * sa * CLOUD_GAIN * fr);
    const n4 = n & ~3;
    for (let j = 0; j < n4; j += 4) {
      const o = <usize>j << 2;
      const xl = v128.load(l + o), xr = v128.load(r + o);
      const e = v128.load(pe + o), d = v128.load(po + o);
      v128.store(fp + o, f32x4.add(f32x4.mul(f32x4.add(xl, xr), half), f32x4.mul(f32x4.add(e, d), fb)));
      v128.store(l + o, f32x4.add(f32x4.mul(xl, dry), f32x4.add(f32x4.mul(e, nw), f32x4.mul(d, fw))));
      v128.store(r + o, f32x4.add(f32x4.mul(xr, dry), f32x4.add(f32x4.mul(e, fw), f32x4.mul(d, nw))));
      dry = f32x4.add(dry, dd);
      nw = f32x4.add(nw, dn);
      fw = f32x4.add(fw, df);
    }
    for (let j = n4; j < n; j++) {
      const o = <usize>j << 2;
      const amt = a0 + sa * <f32>(j + 1);
      const xl = load<f32>(l + o), xr = load<f32>(r + o);
      const e = load<f32>(pe + o), d = load<f32>(po + o);
      store<f32>(fp + o, (xl + xr) * 0.5 + (e + d) * fbs);
      const dy: f32 = 1.0 - 0.5 * amt;
      const wet = CLOUD_GAIN * amt;
      store<f32>(l + o, xl * dy + (e * nr + d * fr) * wet);
      store<f32>(r + o, xr * dy + (e * fr + d * nr) * wet);
    }
    // Low-pass, flushed to zero (the loop must never reach denormals), into the buffer.
    this.lp.process(fp, n, true);
    if (direct) this.line.commit(n);
    else this.line.writeBlock(fp, n);
  }
}

/** acc[0..nv) (= if first, else +=) the four sources at p[0..4) under linear gain ramps
 *  (gain at frame j: g[k] + (j + 1) s[k]). */
// @ts-ignore: decorator
@inline
function sum4(acc: usize, first: bool, nv: i32, p: usize, g: usize, s: usize): void {
  const p0 = load<usize>(p), p1 = load<usize>(p, 4), p2 = load<usize>(p, 8), p3 = load<usize>(p, 12);
  const ramp = f32x4(1.0, 2.0, 3.0, 4.0);
  const s0 = load<f32>(s), s1 = load<f32>(s, 4), s2 = load<f32>(s, 8), s3 = load<f32>(s, 12);
  let v0 = f32x4.add(f32x4.splat(load<f32>(g)), f32x4.mul(ramp, f32x4.splat(s0)));
  let v1 = f32x4.add(f32x4.splat(load<f32>(g, 4)), f32x4.mul(ramp, f32x4.splat(s1)));
  let v2 = f32x4.add(f32x4.splat(load<f32>(g, 8)), f32x4.mul(ramp, f32x4.splat(s2)));
  let v3 = f32x4.add(f32x4.splat(load<f32>(g, 12)), f32x4.mul(ramp, f32x4.splat(s3)));
  const d0 = f32x4.splat(4.0 * s0), d1 = f32x4.splat(4.0 * s1), d2 = f32x4.splat(4.0 * s2), d3 = f32x4.splat(4.0 * s3);
  if (first) {
    for (let j = 0; j < nv; j += 4) {
      const o = <usize>j << 2;
      v128.store(acc + o, f32x4.add(
        f32x4.add(f32x4.mul(v128.load(p0 + o), v0), f32x4.mul(v128.load(p1 + o), v1)),
        f32x4.add(f32x4.mul(v128.load(p2 + o), v2), f32x4.mul(v128.load(p3 + o), v3))));
      v0 = f32x4.add(v0, d0); v1 = f32x4.add(v1, d1); v2 = f32x4.add(v2, d2); v3 = f32x4.add(v3, d3);
    }
  } else {
    for (let j = 0; j < nv; j += 4) {
      const o = <usize>j << 2;
      v128.store(acc + o, f32x4.add(v128.load(acc + o), f32x4.add(
        f32x4.add(f32x4.mul(v128.load(p0 + o), v0), f32x4.mul(v128.load(p1 + o), v1)),
        f32x4.add(f32x4.mul(v128.load(p2 + o), v2), f32x4.mul(v128.load(p3 + o), v3)))));
      v0 = f32x4.add(v0, d0); v1 = f32x4.add(v1, d1); v2 = f32x4.add(v2, d2); v3 = f32x4.add(v3, d3);
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
