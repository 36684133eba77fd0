// Shepard tone (Risset glissando): three sine layers per sounding channel glide endlessly up (or
// down) through a window of `octaves` octaves (extra, 1-8) centred on the channel's pitch.
// Layer j sits at position x_j = frac(pos + j/3) in the window, at f * 2^((x_j - 1/2) * octaves),
// with the raised-cosine loudness 1/2 - 1/2 cos(2 pi x_j): silent at both window ends, where it
// wraps, and the three loudnesses always sum to 3/2, so the total level never moves.
// Rate (`value`, 0.1-5 Hz) is the pattern's repetition rate: every 1/value s each layer has moved
// one layer spacing (octaves/3 octaves; with octaves = 3 the layers are exactly an octave apart).
// Direction (extra 1): 0 up, 1 down. Layers follow the channel's live pitch and gain (silent when
// no channel sounds); layers above 18 kHz fade out so nothing aliases.
// The 12 sines are three v128 oscillators (one per layer, lanes = channels), magic-circle form
// per sample, exact (cos, sin) state renormalised once per block; each layer's pitch is held per
// block.

import { Effect } from "./effect";
import { channels, toneScale } from "../bus";
import { BLOCK, CHANNELS } from "../lib/constants";
import { addLaneSums } from "../lib/simd";
import { incU32, QUARTER, sineTable, tableAt, TWO32 } from "../lib/mod/table";
import { blockCoef, Smoothed } from "../lib/smooth";

const LAYERS: i32 = 3;
const FADE_FROM: f64 = 18000.0;
const FADE_TO: f64 = 20000.0;

/** 2^x for |x| < 1000: exponent bits plus a Taylor polynomial for 2^f, f in [0, 1) (relative
 *  error < 1e-12; Math.pow cost more than the rest of the per-block work). */
function exp2(x: f64): f64 {
  const fl = Math.floor(x);
  const y = (x - fl) * 0.6931471805599453;
  let p = 1.0 / 479001600.0; // 1/12!
  p = 1.0 / 39916800.0 + y * p;
  p = 1.0 / 3628800.0 + y * p;
  p = 1.0 / 362880.0 + y * p;
  p = 1.0 / 40320.0 + y * p;
  p = 1.0 / 5040.0 + y * p;
  p = 1.0 / 720.0 + y * p;
  p = 1.0 / 120.0 + y * p;
  p = 1.0 / 24.0 + y * p;
  p = 1.0 / 6.0 + y * p;
  p = 0.5 + y * p;
  p = 1.0 + y * p;
  p = 1.0 + y * p;
  return p * reinterpret<f64>(<i64>(<i32>fl + 1023) << 52);
}

export class Shepard extends Effect {
  // [layer][channel], so each layer is one v128 across the four channels.
  cos: StaticArray<f32> = new StaticArray<f32>(CHANNELS * LAYERS);  // rotator state
  sin: StaticArray<f32> = new StaticArray<f32>(CHANNELS * LAYERS);
  rotC: StaticArray<f32> = new StaticArray<f32>(CHANNELS * LAYERS); // cos, sin of half the
  rotS: StaticArray<f32> = new StaticArray<f32>(CHANNELS * LAYERS); // per-sample phase step
  g0: StaticArray<f32> = new StaticArray<f32>(CHANNELS * LAYERS);   // loudness at block start
  vecs: StaticArray<f32> = new StaticArray<f32>(BLOCK * 4);          // per-sample lane values
  gains: StaticArray<f32> = new StaticArray<f32>(CHANNELS * LAYERS); // and at block end
  pos: f64 = 0.0;   // pattern position in layer spacings' thirds: [0, 1)
  rate: Smoothed = new Smoothed();
  span: Smoothed = new Smoothed();
  dir: f64 = 1.0;
  coef: f32 = 0.0;
  factor: StaticArray<f64> = new StaticArray<f64>(LAYERS); // per-block pitch factor per layer
  loud: StaticArray<f64> = new StaticArray<f64>(LAYERS);   // per-block loudness per layer
  table: usize = 0;
  steps: StaticArray<f32> = new StaticArray<f32>(6 * 4); // per-block loop vectors (render)

  init(fs: f64): void {
    super.init(fs);
    this.coef = blockCoef(fs);
    this.table = sineTable();
  }

  set(value: f32, e1: f32, e2: f32, e3: f32): void {
    super.set(value, e1, e2, e3);
    this.rate.target = Mathf.min(Mathf.max(value, 0.0), 5.0);
    this.dir = e1 >= 0.5 ? -1.0 : 1.0;
    this.span.target = Mathf.min(Mathf.max(e2, 1.0), 8.0);
  }

  reset(): void {
    this.pos = 0.0;
    this.rate.jump(this.rate.target);
    this.span.jump(this.span.target);
    for (let i = 0; i < CHANNELS * LAYERS; i++) {
      this.cos[i] = 1.0;
      this.sin[i] = 0.0;
      this.gains[i] = 0.0;
    }
  }

  process(l: usize, r: usize, n: i32): void {
    const fs = this.fs;
    const rate = <f64>this.rate.step(this.coef);
    const span = <f64>this.span.step(this.coef);
    // One layer spacing (1/3 of the window) per 1/rate seconds.
    const x0 = this.pos;
    const dx = this.dir * rate / 3.0 * <f64>n / fs;
    this.pos = x0 + dx - Math.floor(x0 + dx);
    // Per layer (shared by the four channels): the pitch factor at the block's middle and the
    // loudness at its end; six transcendental calls per block instead of four per oscillator.
    const F = this.factor, W = this.loud;
    for (let j = 0; j < LAYERS; j++) {
      let xm = x0 + dx * 0.5 + <f64>j / 3.0;
      xm -= Math.floor(xm);
      let xe = x0 + dx + <f64>j / 3.0;
      xe -= Math.floor(xe);
      unchecked((F[j] = exp2(<f64>(xm - 0.5) * span)));
      // cos from the sine table (error ~3e-7, far below the f32 loudness it feeds).
      unchecked((W[j] = 0.5 - 0.5 * <f64>tableAt(this.table, <u32>(<u64>(xe * TWO32)) + QUARTER)));
    }
    const table = this.table;
    let any = false;
    for (let c = 0; c < CHANNELS; c++) {
      const ch = channels[c];
      const level = <f64>(ch.gain * toneScale) * (2.0 / 3.0);
      const base = ch.inc;
      const sounding = base > 0.0 && level > 0.0;
      for (let j = 0; j < LAYERS; j++) {
        const k = j * CHANNELS + c; // [layer][channel]: channels are the SIMD lanes
        const g0 = unchecked(this.gains[k]);
        let g1: f32 = 0.0;
        let cps = 0.0;
        if (sounding) {
          cps = base * unchecked(F[j]);
          const fade = Math.min(Math.max((FADE_TO - cps * fs) / (FADE_TO - FADE_FROM), 0.0), 1.0);
          g1 = <f32>(level * unchecked(W[j]) * fade);
        }
        unchecked((this.gains[k] = g1));
        unchecked((this.g0[k] = g0));
        if (g1 != 0.0 || g0 != 0.0) any = true;
        // Per-block rotation by the layer's phase step (held for the block; the pitch moves
        // by under 0.4% per block, and the phase stays continuous). cos and sin come from the
        // engine's sine table (error ~3e-7: a pitch error of a few mHz, a radius drift the
        // per-block renormalisation removes).
        const w = incU32(Math.min(cps, 0.45)) >>> 1; // half a step (see render)
        unchecked((this.rotC[k] = tableAt(table, w + QUARTER)));
        unchecked((this.rotS[k] = tableAt(table, w)));
      }
    }
    if (!any) return;
    this.render(l, r, n);
  }

  /** Twelve sine oscillators as three v128 rotators (lanes = channels), summed into l and r. */
  private render(l: usize, r: usize, n: i32): void {
    const C = changetype<usize>(this.cos), S = changetype<usize>(this.sin);
    const RC = changetype<usize>(this.rotC), RS = changetype<usize>(this.rotS);
    const G0 = changetype<usize>(this.g0), G1 = changetype<usize>(this.gains);
    const V = changetype<usize>(this.vecs);
    // Renormalise the rotators once per block (f32 rounding would slowly change their radius).
    let c0 = v128.load(C), c1 = v128.load(C, 16), c2 = v128.load(C, 32);
    let s0 = v128.load(S), s1 = v128.load(S, 16), s2 = v128.load(S, 32);
    const h = f32x4.splat(0.5), t = f32x4.splat(1.5);
    let k0 = f32x4.sub(t, f32x4.mul(h, f32x4.add(f32x4.mul(c0, c0), f32x4.mul(s0, s0))));
    let k1 = f32x4.sub(t, f32x4.mul(h, f32x4.add(f32x4.mul(c1, c1), f32x4.mul(s1, s1))));
    let k2 = f32x4.sub(t, f32x4.mul(h, f32x4.add(f32x4.mul(c2, c2), f32x4.mul(s2, s2))));
    c0 = f32x4.mul(c0, k0); s0 = f32x4.mul(s0, k0);
    c1 = f32x4.mul(c1, k1); s1 = f32x4.mul(s1, k1);
    c2 = f32x4.mul(c2, k2); s2 = f32x4.mul(s2, k2);
    // Magic-circle oscillators (two multiplies and two adds per sample instead of a rotation's
    // four and two): with e = 2 sin(w/2), s += e c; c -= e s keeps s = sin(theta + n w) exactly
    // when c starts at cos(theta + w/2). Converted from and back to the exact (cos, sin) state
    // at the block's ends, so pitch changes between blocks stay seamless.
    const hc0 = v128.load(RC), hc1 = v128.load(RC, 16), hc2 = v128.load(RC, 32);
    const hs0 = v128.load(RS), hs1 = v128.load(RS, 16), hs2 = v128.load(RS, 32);
    // Per-block vectors the loop reads from memory (as locals, their computation was moved into
    // the loop and redone every sample): e = 2 sin(w/2) per layer, then the gain steps.
    const K = changetype<usize>(this.steps);
    const two = f32x4.splat(2.0);
    v128.store(K, f32x4.mul(two, hs0)); v128.store(K, f32x4.mul(two, hs1), 16); v128.store(K, f32x4.mul(two, hs2), 32);
    c0 = f32x4.sub(f32x4.mul(c0, hc0), f32x4.mul(s0, hs0));
    c1 = f32x4.sub(f32x4.mul(c1, hc1), f32x4.mul(s1, hs1));
    c2 = f32x4.sub(f32x4.mul(c2, hc2), f32x4.mul(s2, hs2));
    const inv = f32x4.splat(1.0 / <f32>n);
    let g0 = v128.load(G0), g1 = v128.load(G0, 16), g2 = v128.load(G0, 32);
    v128.store(K, f32x4.mul(f32x4.sub(v128.load(G1), g0), inv), 48);
    v128.store(K, f32x4.mul(f32x4.sub(v128.load(G1, 16), g1), inv), 64);
    v128.store(K, f32x4.mul(f32x4.sub(v128.load(G1, 32), g2), inv), 80);
    for (let i = 0; i < n; i++) {
      g0 = f32x4.add(g0, v128.load(K, 48)); g1 = f32x4.add(g1, v128.load(K, 64)); g2 = f32x4.add(g2, v128.load(K, 80));
      const e0 = v128.load(K), e1 = v128.load(K, 16), e2 = v128.load(K, 32);
      s0 = f32x4.add(s0, f32x4.mul(e0, c0)); c0 = f32x4.sub(c0, f32x4.mul(e0, s0));
      s1 = f32x4.add(s1, f32x4.mul(e1, c1)); c1 = f32x4.sub(c1, f32x4.mul(e1, s1));
      s2 = f32x4.add(s2, f32x4.mul(e2, c2)); c2 = f32x4.sub(c2, f32x4.mul(e2, s2));
      v128.store(V + (<usize>i << 4), f32x4.add(f32x4.add(f32x4.mul(s0, g0), f32x4.mul(s1, g1)), f32x4.mul(s2, g2)));
    }
    // Back to cos(theta): c = cos(theta + w/2) = cos(theta) cos(w/2) - sin(theta) sin(w/2).
    c0 = f32x4.div(f32x4.add(c0, f32x4.mul(s0, hs0)), hc0);
    c1 = f32x4.div(f32x4.add(c1, f32x4.mul(s1, hs1)), hc1);
    c2 = f32x4.div(f32x4.add(c2, f32x4.mul(s2, hs2)), hc2);
    addLaneSums(V, n, l, r);
    v128.store(C, c0); v128.store(C, c1, 16); v128.store(C, c2, 32);
    v128.store(S, s0); v128.store(S, s1, 16); v128.store(S, s2, 32);
  }
}
