// Shepard tone (Risset glissando): three sine layers per sounding channel glide endlessly up (or
// down) through a window of `octaves` octaves (extra, 1-8) centred on the channel's pitch.
// Layer j sits at position x_j = frac(pos + j/3) in the window, at f * 2^((x_j - 1/2) * octaves),
// with the raised-cosine loudness 1/2 - 1/2 cos(2 pi x_j): silent at both window ends, where it
// wraps, and the three loudnesses always sum to 3/2, so the total level never moves.
// Rate (`value`, 0.1-5 Hz) is the pattern's repetition rate: every 1/value s each layer has moved
// one layer spacing (octaves/3 octaves; with octaves = 3 the layers are exactly an octave apart).
// Direction (extra 1): 0 up, 1 down. Layers follow the channel's live pitch and gain (silent when
// no channel sounds); layers above 18 kHz fade out so nothing aliases.

import { Effect } from "./effect";
import { channels, toneScale } from "../bus";
import { CHANNELS } from "../lib/constants";
import { blockCoef, Smoothed } from "../lib/smooth";
import { sineTable, tableAt, TWO32 } from "../lib/voice-osc";

const LAYERS: i32 = 3;
const FADE_FROM: f64 = 18000.0;
const FADE_TO: f64 = 20000.0;

export class Shepard extends Effect {
  phases: StaticArray<u32> = new StaticArray<u32>(CHANNELS * LAYERS);
  gains: StaticArray<f32> = new StaticArray<f32>(CHANNELS * LAYERS);
  incs: StaticArray<f64> = new StaticArray<f64>(CHANNELS * LAYERS); // u32 units per sample
  pos: f64 = 0.0;   // pattern position in layer spacings' thirds: [0, 1)
  rate: Smoothed = new Smoothed();
  span: Smoothed = new Smoothed();
  dir: f64 = 1.0;
  table: usize = 0;
  coef: f32 = 0.0;

  init(fs: f64): void {
    super.init(fs);
    this.table = sineTable();
    this.coef = blockCoef(fs);
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
      this.phases[i] = 0;
      this.gains[i] = 0.0;
      this.incs[i] = -1.0; // unknown: take the first block's value without a ramp
    }
  }

  process(l: usize, r: usize, n: i32): void {
    const fs = this.fs;
    const rate = <f64>this.rate.step(this.coef);
    const span = <f64>this.span.step(this.coef);
    // One layer spacing (1/3 of the window) per 1/rate seconds.
    this.pos += this.dir * rate / 3.0 * <f64>n / fs;
    this.pos -= Math.floor(this.pos);
    const inv = 1.0 / <f64>n;
    for (let c = 0; c < CHANNELS; c++) {
      const ch = channels[c];
      const level = ch.gain * toneScale * <f32>(2.0 / 3.0);
      const base = ch.inc;
      for (let j = 0; j < LAYERS; j++) {
        const k = c * LAYERS + j;
        const g0 = unchecked(this.gains[k]);
        let x = this.pos + <f64>j / 3.0;
        x -= Math.floor(x);
        let g1: f32 = 0.0;
        let inc1 = 0.0;
        if (base > 0.0 && level > 0.0) {
          const cps = base * Math.pow(2.0, (x - 0.5) * span);
          const hz = cps * fs;
          const fade = Math.min(Math.max((FADE_TO - hz) / (FADE_TO - FADE_FROM), 0.0), 1.0);
          g1 = level * <f32>((0.5 - 0.5 * Math.cos(2.0 * Math.PI * x)) * fade);
          inc1 = Math.min(cps, 0.45) * TWO32;
        }
        unchecked((this.gains[k] = g1));
        let inc0 = unchecked(this.incs[k]);
        // A layer that wrapped (or was silent) starts at its new pitch: its loudness is ~0 there.
        if (inc0 < 0.0 || g0 == 0.0 || Math.abs(inc1 - inc0) > inc0 * 0.1) inc0 = inc1;
        unchecked((this.incs[k] = inc1));
        if (g0 == 0.0 && g1 == 0.0) continue;
        let p = unchecked(this.phases[k]);
        let ic = <u32>(<u64>inc0);
        const di = <u32>(<i32>((inc1 - inc0) * inv)); // two's complement: adding it steps down too
        let g = g0;
        const gs = (g1 - g0) * <f32>inv;
        const t = this.table;
        for (let i = 0; i < n; i++) {
          g += gs;
          ic += di;
          const s = tableAt(t, p) * g;
          p += ic;
          const a = <usize>i << 2;
          store<f32>(l + a, load<f32>(l + a) + s);
          store<f32>(r + a, load<f32>(r + a) + s);
        }
        unchecked((this.phases[k] = p));
      }
    }
  }
}
