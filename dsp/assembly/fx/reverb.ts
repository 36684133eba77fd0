// Reverb: a feedback delay network (Jot & Chaigne 1991; Smith, "Physical Audio Signal
// Processing", FDN reverberation) with 8 delay lines of 30-58 ms (mutually prime lengths) and a
// Householder feedback matrix A = I - (2/8) 1 1^T (orthogonal, 8 adds + 8 multiply-adds).
// Decay time RT60 = `value` / 30 s (spec 9; 0-100 % gives 0-3.3 s): line i, D_i frames long,
// is scaled by g_i = 10^(-3 D_i / (RT60 fs)), i.e. -60 dB per RT60 on every path, so every mode
// decays at the same rate. A two-tap damping filter (0.85 + 0.15 z^-1, unity at DC) in each
// line lets highs die faster, like air and walls. Two Schroeder all-passes per channel diffuse
// the input first. Left/right outputs take orthogonal sign patterns of the lines (decorrelated).
// Out = dry + wet; the wet level is normalised by the lines' energy gain 1 / (1 - g^2) so that
// a long decay is not much louder than a short one, and fades out below 5 % (0 % = dry).
//
// Speed: every delay (all-passes included) is longer than one block, so nothing read in a block
// depends on that block's output. The network therefore runs block-wise: DelayLine
// readSpan / writeSpan work in place in the rings (a copy only when a block wraps the ring's
// end) and all the arithmetic is f32x4 over four frames at a time. The two all-passes of a
// channel run in one pass, and the network writes dry + wet straight into the block.

import { Effect } from "./effect";
import { BLOCK } from "../lib/constants";
import { DelayLine } from "../lib/delay/delayline";
import { Smoothed, blockCoef } from "../lib/smooth";
import { opaque } from "../lib/simd";

const LINES: i32 = 8;
const LINE_48K: StaticArray<i32> = [1433, 1601, 1867, 2053, 2251, 2399, 2617, 2797];
const AP_48K: StaticArray<i32> = [241, 337, 263, 359]; // left 0-1, right 2-3
const AP_G: f32 = 0.6;
const DAMP: f32 = 0.15;
const WET: f32 = 0.2; // wet level (includes 1/sqrt(8) for the sum of 8 lines)
const STRIDE: i32 = BLOCK + 8; // scratch row: n + 1 frames read, rounded up to whole vectors

export class Reverb extends Effect {
  lines: StaticArray<DelayLine> = new StaticArray<DelayLine>(LINES);
  aps: StaticArray<DelayLine> = new StaticArray<DelayLine>(4);
  len: StaticArray<i32> = new StaticArray<i32>(LINES);
  apLen: StaticArray<i32> = new StaticArray<i32>(4);
  gain: StaticArray<f32> = new StaticArray<f32>(LINES);
  scratch: StaticArray<f32> = new StaticArray<f32>(LINES * STRIDE);
  inL: StaticArray<f32> = new StaticArray<f32>(STRIDE);
  inR: StaticArray<f32> = new StaticArray<f32>(STRIDE);
  tmp: StaticArray<f32> = new StaticArray<f32>(STRIDE);   // all-pass reads that wrap the ring
  tmp2: StaticArray<f32> = new StaticArray<f32>(STRIDE);
  tmpW: StaticArray<f32> = new StaticArray<f32>(STRIDE);  // all-pass writes that wrap the ring
  tmpW2: StaticArray<f32> = new StaticArray<f32>(STRIDE);
  padL: StaticArray<f32> = new StaticArray<f32>(STRIDE);  // a block that is not whole vectors
  padR: StaticArray<f32> = new StaticArray<f32>(STRIDE);
  fbRows: StaticArray<f32> = new StaticArray<f32>(LINES * STRIDE);
  rows: StaticArray<usize> = new StaticArray<usize>(LINES);  // read address per line this block
  dest: StaticArray<usize> = new StaticArray<usize>(LINES);  // feedback address per line
  direct: StaticArray<bool> = new StaticArray<bool>(LINES);  // feedback written in place
  amount: Smoothed = new Smoothed(); // value, %
  gainFor: f32 = -1.0;               // amount the gains were computed for
  wet: f32 = 0.0;                    // wet gain at the end of the last block
  wetTarget: f32 = 0.0;
  coef: f32 = 0.1;

  init(fs: f64): void {
    super.init(fs);
    this.coef = blockCoef(fs);
    const k = fs / 48000.0;
    for (let i = 0; i < LINES; i++) {
      const d = max(BLOCK + 1, <i32>Math.round(<f64>LINE_48K[i] * k));
      this.len[i] = d;
      this.lines[i] = new DelayLine(d + 2);
    }
    for (let i = 0; i < 4; i++) {
      const d = max(BLOCK, <i32>Math.round(<f64>AP_48K[i] * k));
      this.apLen[i] = d;
      this.aps[i] = new DelayLine(d + 2);
    }
  }

  set(value: f32, e1: f32, e2: f32, e3: f32): void {
    super.set(value, e1, e2, e3);
    this.amount.target = Mathf.min(Mathf.max(value, 0.0), 100.0);
  }

  /** Line gains for the decay time amount / 30 s, and the normalised wet gain. */
  design(amount: f32): void {
    const rt = Math.max(<f64>amount / 30.0, 0.001);
    let energy = 0.0;
    for (let i = 0; i < LINES; i++) {
      const g = Math.pow(10.0, -3.0 * <f64>this.len[i] / (rt * this.fs));
      this.gain[i] = <f32>g;
      energy += 1.0 / (1.0 - g * g);
    }
    const fadeIn = Math.min(1.0, <f64>amount / 5.0);
    this.wetTarget = <f32>(<f64>WET * fadeIn / Math.sqrt(energy / <f64>LINES));
    this.gainFor = amount;
  }

  reset(): void {
    this.amount.jump(this.amount.target);
    this.design(this.amount.value);
    this.wet = this.wetTarget;
    for (let i = 0; i < LINES; i++) this.lines[i].reset();
    for (let i = 0; i < 4; i++) this.aps[i].reset();
  }

  /** dst[0..nv) = src through two Schroeder all-passes in series, v = x + g v[-D],
   *  y = v[-D] - g v (lines `first` and first + 1), fused in one pass (both delays exceed a
   *  block, so every read is older than the block). Only n frames enter the lines. */
  diffuse(src: usize, dst: usize, n: i32, nv: i32, first: i32): void {
    const g = f32x4.splat(AP_G);
    const a = this.aps[first], b = this.aps[first + 1];
    const ta = changetype<usize>(this.tmp), tb = changetype<usize>(this.tmp2);
    const oa = nv == n ? a.readSpanInline(ta, this.apLen[first], n) : padded(a, ta, this.apLen[first], n, nv);
    const ob = nv == n ? b.readSpanInline(tb, this.apLen[first + 1], n) : padded(b, tb, this.apLen[first + 1], n, nv);
    let wa = a.writeSpanInline(n), wb = b.writeSpanInline(n);
    const da = wa != 0 && nv == n, db = wb != 0 && nv == n;
    if (!da) wa = changetype<usize>(this.tmpW);
    if (!db) wb = changetype<usize>(this.tmpW2);
    for (let j = 0; j < nv; j += 4) {
      const o = <usize>j << 2;
      const va = v128.load(oa + o), vb = v128.load(ob + o);
      const v = f32x4.add(v128.load(src + o), f32x4.mul(g, va));
      v128.store(wa + o, v);
      const y = f32x4.sub(va, f32x4.mul(g, v));
      const w = f32x4.add(y, f32x4.mul(g, vb));
      v128.store(wb + o, w);
      v128.store(dst + o, f32x4.sub(vb, f32x4.mul(g, w)));
    }
    if (da) a.commit(n); else a.writeBlock(wa, n);
    if (db) b.commit(n); else b.writeBlock(wb, n);
  }

  process(l: usize, r: usize, n: i32): void {
    const amount = this.amount.step(this.coef);
    if (amount != this.gainFor) this.design(amount);
    const w0 = this.wet, w1 = this.wetTarget;
    this.wet = w1;

    const pl = changetype<usize>(this.inL);
    const pr = changetype<usize>(this.inR);
    const nv = (n + 3) & ~3; // frames covered by whole vectors
    // The block is processed in place; one that is not whole vectors goes through zero-padded
    // copies (and is copied back at the end).
    let L = l, R = r;
    if (nv != n) {
      const bytes = <usize>n << 2, pad = <usize>(nv - n) << 2;
      L = changetype<usize>(this.padL);
      R = changetype<usize>(this.padR);
      memory.copy(L, l, bytes);
      memory.copy(R, r, bytes);
      memory.fill(L + bytes, 0, pad);
      memory.fill(R + bytes, 0, pad);
    }
    this.diffuse(L, pl, n, nv, 0);
    this.diffuse(R, pr, n, nv, 2);

    // Each line's outputs for this block plus the frame before (for the damping tap), read in
    // place where the ring allows; the feedback is written straight into the ring when it can.
    const sc = changetype<usize>(this.scratch);
    const S = <usize>STRIDE << 2;
    const ro = changetype<usize>(this.rows);
    const wo = changetype<usize>(this.dest);
    for (let i = 0; i < LINES; i++) {
      const line = this.lines[i];
      const row = sc + <usize>i * S;
      const src = nv == n ? line.readSpanInline(row, this.len[i] + 1, n + 1) : padded(line, row, this.len[i] + 1, n + 1, nv + 4);
      store<usize>(ro + (<usize>i << 2), src);
      // Feedback goes to the ring if contiguous, else to a scratch row (copied in afterwards).
      let w = line.writeSpanInline(n);
      const direct = w != 0 && nv == n;
      if (!direct) w = changetype<usize>(this.fbRows) + <usize>i * S;
      this.direct[i] = direct;
      store<usize>(wo + (<usize>i << 2), w);
    }
    const y0p = load<usize>(ro), y1p = load<usize>(ro, 4), y2p = load<usize>(ro, 8), y3p = load<usize>(ro, 12);
    const y4p = load<usize>(ro, 16), y5p = load<usize>(ro, 20), y6p = load<usize>(ro, 24), y7p = load<usize>(ro, 28);
    const f0p = load<usize>(wo), f1p = load<usize>(wo, 4), f2p = load<usize>(wo, 8), f3p = load<usize>(wo, 12);
    const f4p = load<usize>(wo, 16), f5p = load<usize>(wo, 20), f6p = load<usize>(wo, 24), f7p = load<usize>(wo, 28);

    const g0 = f32x4.splat(this.gain[0]), g1 = f32x4.splat(this.gain[1]);
    const g2 = f32x4.splat(this.gain[2]), g3 = f32x4.splat(this.gain[3]);
    const g4 = f32x4.splat(this.gain[4]), g5 = f32x4.splat(this.gain[5]);
    const g6 = f32x4.splat(this.gain[6]), g7 = f32x4.splat(this.gain[7]);
    // Loop constants as loaded values (lib/simd opaque: not rematerialised per use).
    const kd = opaque(f32x4.splat(DAMP));
    const kn = opaque(f32x4.splat(1.0 - DAMP));
    const quarter = opaque(f32x4.splat(0.25));
    const half = opaque(f32x4.splat(0.5));
    const tiny = opaque(f32x4.splat(1e-18));
    const ws = (w1 - w0) / <f32>n;
    let wv = f32x4(w0 + ws, w0 + 2.0 * ws, w0 + 3.0 * ws, w0 + 4.0 * ws);
    const wd = f32x4.splat(4.0 * ws);
    for (let j = 0; j < nv; j += 4) {
      const o = <usize>j << 2;
      // Damped line outputs: (1 - DAMP) out[j] + DAMP out[j - 1]; row[k] holds out[k - 1].
      const y0 = damp(y0p + o, kn, kd), y1 = damp(y1p + o, kn, kd), y2 = damp(y2p + o, kn, kd), y3 = damp(y3p + o, kn, kd);
      const y4 = damp(y4p + o, kn, kd), y5 = damp(y5p + o, kn, kd), y6 = damp(y6p + o, kn, kd), y7 = damp(y7p + o, kn, kd);
      // Pair sums and differences serve the Householder sum and both output patterns.
      const a = f32x4.sub(y0, y1), b = f32x4.sub(y2, y3), c = f32x4.sub(y4, y5), d = f32x4.sub(y6, y7);
      const e = f32x4.add(y0, y1), f = f32x4.add(y2, y3), gg = f32x4.add(y4, y5), h = f32x4.add(y6, y7);
      const sum = f32x4.mul(quarter, f32x4.add(f32x4.add(e, f), f32x4.add(gg, h)));
      // Input (left into lines 0-3, right into 4-7, alternating signs) with the flush-to-zero
      // offset folded in: (v +- (x + tiny)) -+ tiny is lib/math ftz(v +- x) whenever the
      // input is silent, and exactly v +- x for any audible input, so the decaying loop never
      // reaches denormals.
      const xl = f32x4.add(f32x4.mul(half, v128.load(pl + o)), tiny);
      const xr = f32x4.add(f32x4.mul(half, v128.load(pr + o)), tiny);
      // Feedback: A y scaled per line, plus the input.
      v128.store(f0p + o, f32x4.sub(f32x4.add(f32x4.mul(g0, f32x4.sub(y0, sum)), xl), tiny));
      v128.store(f1p + o, f32x4.add(f32x4.sub(f32x4.mul(g1, f32x4.sub(y1, sum)), xl), tiny));
      v128.store(f2p + o, f32x4.sub(f32x4.add(f32x4.mul(g2, f32x4.sub(y2, sum)), xl), tiny));
      v128.store(f3p + o, f32x4.add(f32x4.sub(f32x4.mul(g3, f32x4.sub(y3, sum)), xl), tiny));
      v128.store(f4p + o, f32x4.sub(f32x4.add(f32x4.mul(g4, f32x4.sub(y4, sum)), xr), tiny));
      v128.store(f5p + o, f32x4.add(f32x4.sub(f32x4.mul(g5, f32x4.sub(y5, sum)), xr), tiny));
      v128.store(f6p + o, f32x4.sub(f32x4.add(f32x4.mul(g6, f32x4.sub(y6, sum)), xr), tiny));
      v128.store(f7p + o, f32x4.add(f32x4.sub(f32x4.mul(g7, f32x4.sub(y7, sum)), xr), tiny));
      // Outputs: orthogonal sign patterns (+-+-+-+-, ++--++--), added to the dry signal.
      const wl = f32x4.add(f32x4.add(a, b), f32x4.add(c, d));
      const wr = f32x4.add(f32x4.sub(e, f), f32x4.sub(gg, h));
      // Out = dry + wet (the wet gain ramps).
      v128.store(L + o, f32x4.add(v128.load(L + o), f32x4.mul(wl, wv)));
      v128.store(R + o, f32x4.add(v128.load(R + o), f32x4.mul(wr, wv)));
      wv = f32x4.add(wv, wd);
    }
    for (let i = 0; i < LINES; i++) {
      const line = this.lines[i];
      if (this.direct[i]) line.commit(n);
      else line.writeBlock(load<usize>(wo + (<usize>i << 2)), n);
    }
    if (nv != n) {
      memory.copy(l, L, <usize>n << 2);
      memory.copy(r, R, <usize>n << 2);
    }
  }
}

/** Damped line output at row address p: (1 - DAMP) p[1..4] + DAMP p[0..3]. */
// @ts-ignore: decorator
@inline
function damp(p: usize, kn: v128, kd: v128): v128 {
  return f32x4.add(f32x4.mul(kn, v128.load(p + 4)), f32x4.mul(kd, v128.load(p)));
}

/** readBlock of n frames into dst, zero-padded up to nv frames (a block that is not whole vectors). */
function padded(line: DelayLine, dst: usize, d: i32, n: i32, nv: i32): usize {
  memory.fill(dst + (<usize>n << 2), 0, <usize>(nv - n) << 2);
  line.readBlock(dst, d, n);
  return dst;
}
