// Signatures of the tone and modulation effects (slots 1-14), each proved from measured output:
// spectra, envelopes, levels and sample values rendered through dsp/host. Renders run with the
// master compressor off and master gain 1, so what is measured is the effect itself.

import { describe, expect, it } from "vitest";
import { EFFECTS } from "../../../dsp/host/catalogue";
import type { Engine } from "../../../dsp/host/engine";
import { defaultEffect, type AudioState, type Waveform } from "../../../dsp/host/state";
import {
  FS, db, engineWith, levelAt, magnitude, maxStep, peak, peakFrequency, renderFrames, rms, singleTone, type Stereo,
} from "./helpers";

/** One channel at `freq`, plus `id` switched on with `patch`. */
function tone(freq: number, id?: string, patch: Record<string, unknown> = {}, w: Waveform = "sine"): AudioState {
  const s = singleTone(freq, w);
  if (id) {
    const def = EFFECTS.find((d) => d.id === id)!;
    s.effects[id] = { ...defaultEffect(def), enabled: true, ...patch };
  }
  return s;
}

/** Starts with the compressor off and master gain 1, renders `seconds`. */
function render(state: AudioState, seconds: number): Stereo & { engine: Engine } {
  const engine = engineWith(state);
  engine.setCompressor(false);
  engine.setMaster(1);
  engine.start();
  return { ...renderFrames(engine, Math.round(seconds * FS)), engine };
}

/** Peak |x| in consecutive windows of `win` samples (an amplitude envelope for a steady tone). */
function envelope(x: Float32Array, win: number, from = 0): number[] {
  const out: number[] = [];
  for (let i = from; i + win <= x.length; i += win) out.push(peak(x.subarray(i, i + win)));
  return out;
}

/** Strongest frequency of a sampled envelope (mean removed), by FFT. */
function envelopeRate(env: number[], rate: number): number {
  const mean = env.reduce((a, b) => a + b, 0) / env.length;
  return peakFrequency(env.map((v) => v - mean), rate, 2 ** 16, 0.05);
}

/** Level of the component at f: root of the power summed over the window's main lobe (+/- 4
 *  bins for Blackman-Harris), so it does not depend on where f falls between bins. */
function lobe(mag: Float64Array, f: number, size: number): number {
  const k = Math.round((f * size) / FS);
  let p = 0;
  for (let i = Math.max(0, k - 4); i <= Math.min(mag.length - 1, k + 4); i++) p += mag[i] * mag[i];
  return Math.sqrt(p);
}

/** Level in dB of the component at f relative to the one at ref. */
function rel(mag: Float64Array, f: number, ref: number, size: number): number {
  return db(lobe(mag, f, size) / lobe(mag, ref, size));
}

/** (left + right) / 2. */
function mono(x: Stereo): Float32Array {
  return x.left.map((v, i) => 0.5 * (v + x.right[i]));
}

describe("tremolo and amplitudeMod", () => {
  it("tremolo swings the level between 0.5 and 1 at the set rate", () => {
    const { left } = render(tone(1000, "tremolo", { value: 4 }), 3);
    const env = envelope(left, 48, 4800); // 1 kHz: one period per 48 samples
    expect(envelopeRate(env, 1000)).toBeCloseTo(4, 1);
    const hi = Math.max(...env), lo = Math.min(...env);
    expect(lo / hi).toBeGreaterThan(0.48);
    expect(lo / hi).toBeLessThan(0.52);
  });

  it("amplitudeMod goes from full level to silence at the set rate (sidebands at -6 dB)", () => {
    const { left } = render(tone(1000, "amplitudeMod", { value: 7.5 }), 3);
    const env = envelope(left, 48, 4800);
    expect(envelopeRate(env, 1000)).toBeCloseTo(7.5, 1);
    expect(Math.min(...env) / Math.max(...env)).toBeLessThan(0.01);
    const size = 2 ** 17;
    const mag = magnitude(left, size, 4800, size);
    expect(Math.abs(rel(mag, 1007.5, 1000, size) + 6.02)).toBeLessThan(0.1);
    expect(Math.abs(rel(mag, 992.5, 1000, size) + 6.02)).toBeLessThan(0.1);
  });
});

describe("ringMod", () => {
  const size = 2 ** 16;
  it("at 100% leaves only the sidebands at f ± 30 Hz", () => {
    const { left } = render(tone(800, "ringMod", { value: 100 }), 1.6);
    const mag = magnitude(left, size, 4800, size);
    expect(Math.abs(rel(mag, 830, 770, size))).toBeLessThan(0.2);
    expect(rel(mag, 800, 830, size)).toBeLessThan(-60);
    expect(Math.abs(peakFrequency(left.subarray(4800, 4800 + size), FS, size) - 800) - 30).toBeLessThan(0.1);
  });

  it("at the default 65% keeps 35% of the carrier and 32.5% in each sideband", () => {
    const { left } = render(tone(800, "ringMod"), 1.6);
    const mag = magnitude(left, size, 4800, size);
    expect(Math.abs(rel(mag, 830, 800, size) - db(0.325 / 0.35))).toBeLessThan(0.05);
    expect(Math.abs(rel(mag, 770, 800, size) - db(0.325 / 0.35))).toBeLessThan(0.05);
  });
});

describe("isoPulses and gate", () => {
  function pulseStats(id: string, rate: number, freq = 1000) {
    const { left } = render(tone(freq, id, { value: rate }), 3);
    const env = envelope(left, 48, 4800);
    const hi = Math.max(...env);
    const on = env.filter((v) => v > hi / 2).length / env.length;
    // Longest 10%-90% rise, in ms (one envelope point per ms).
    let rise = 0;
    for (let i = 1; i < env.length; i++) {
      if (env[i - 1] < hi * 0.1 && env[i] >= hi * 0.1) {
        let k = i;
        while (k < env.length && env[k] < hi * 0.9) k++;
        rise = Math.max(rise, k - i + 1);
      }
    }
    return { left, env, hi, on, rise, rate: envelopeRate(env, 1000) };
  }

  it("isoPulses gates on and off at the set rate with smooth edges and no step beyond the tone's own", () => {
    const s = pulseStats("isoPulses", 6);
    expect(s.rate).toBeCloseTo(6, 1);
    expect(Math.min(...s.env) / s.hi).toBeLessThan(0.001);
    expect(s.on).toBeGreaterThan(0.47);
    expect(s.on).toBeLessThan(0.53);
    expect(s.rise).toBeGreaterThanOrEqual(12); // 25 ms raised-cosine edge: ~14 ms from 10% to 90%
    const own = maxStep(render(tone(1000), 1).left, 4800);
    expect(maxStep(s.left, 4800)).toBeLessThanOrEqual(own * 1.001);
  });

  it("gate chops hard (edges of a few ms) at the set rate, still without a step beyond the tone's own", () => {
    const s = pulseStats("gate", 4);
    expect(s.rate).toBeCloseTo(4, 1);
    expect(Math.min(...s.env) / s.hi).toBeLessThan(0.001);
    expect(s.on).toBeGreaterThan(0.47);
    expect(s.on).toBeLessThan(0.53);
    expect(s.rise).toBeLessThanOrEqual(3);
    const own = maxStep(render(tone(1000), 1).left, 4800);
    expect(maxStep(s.left, 4800)).toBeLessThanOrEqual(own * 1.001);
  });
});

describe("noise", () => {
  /** Welch-averaged power spectrum of the left channel (tone muted: channel volume 0). */
  function noiseSpectrum(patch: Record<string, unknown>, seconds = 6): Float64Array {
    const s = tone(1000, "noise", { value: 100, density: 100, ...patch });
    s.channels[0].volume = 0;
    const { left } = render(s, seconds);
    const size = 4096;
    const pow = new Float64Array(size / 2 + 1);
    let count = 0;
    for (let off = 0; off + size <= left.length; off += size / 2, count++) {
      const m = magnitude(left, size, off, size);
      for (let k = 0; k < pow.length; k++) pow[k] += m[k] * m[k];
    }
    return pow.map((p) => p / count);
  }

  /** Mean power in third-octave bands 100 Hz - 10 kHz, then a least-squares line in dB/octave. */
  function slope(pow: Float64Array): { slope: number; worst: number } {
    const xs: number[] = [], ys: number[] = [];
    for (let oct = Math.log2(100); oct <= Math.log2(10000) + 1e-9; oct += 1 / 3) {
      const lo = Math.ceil((2 ** (oct - 1 / 6) * 4096) / FS), hi = Math.floor((2 ** (oct + 1 / 6) * 4096) / FS);
      let p = 0;
      for (let k = lo; k <= hi; k++) p += pow[k];
      xs.push(oct);
      ys.push(10 * Math.log10(p / (hi - lo + 1)));
    }
    const mx = xs.reduce((a, b) => a + b) / xs.length, my = ys.reduce((a, b) => a + b) / ys.length;
    let sxy = 0, sxx = 0;
    for (let i = 0; i < xs.length; i++) { sxy += (xs[i] - mx) * (ys[i] - my); sxx += (xs[i] - mx) ** 2; }
    const b = sxy / sxx;
    const worst = Math.max(...xs.map((x, i) => Math.abs(ys[i] - (my + b * (x - mx)))));
    return { slope: b, worst };
  }

  for (const [type, want] of [["white", 0], ["pink", -3.01], ["brown", -6.02]] as const) {
    it(`${type} noise falls ${-want} dB/octave (100 Hz - 10 kHz, within 1 dB)`, () => {
      const fit = slope(noiseSpectrum({ type }));
      expect(Math.abs(fit.slope - want)).toBeLessThan(0.3);
      expect(fit.worst).toBeLessThan(1);
    });
  }

  it("level is value/100 x 0.15 (white uniform noise: RMS 0.15/sqrt 3 at 100%), every type alike", () => {
    for (const type of ["white", "pink", "brown"]) {
      for (const value of [20, 100]) {
        const s = tone(1000, "noise", { value, type });
        s.channels[0].volume = 0;
        const { left, right } = render(s, 4);
        const want = ((value / 100) * 0.15) / Math.sqrt(3);
        expect(Math.abs(db(rms(left, 4800) / want)), `${type} ${value}`).toBeLessThan(0.75);
        expect(Math.abs(db(rms(right, 4800) / want)), `${type} ${value}`).toBeLessThan(0.75);
      }
    }
  });

  it("left and right are decorrelated and the render is deterministic", () => {
    const s = tone(1000, "noise", { value: 100 });
    s.channels[0].volume = 0;
    const a = render(s, 1), b = render(s, 1);
    expect(Buffer.from(a.left.buffer).equals(Buffer.from(b.left.buffer))).toBe(true);
    let xy = 0;
    for (let i = 0; i < a.left.length; i++) xy += a.left[i] * a.right[i];
    expect(Math.abs(xy / a.left.length) / (rms(a.left) * rms(a.right))).toBeLessThan(0.02);
  });

  it("density sets the impulse rate: 20/s at 0, 2000/s at 50, every sample at 100", () => {
    for (const [density, perSecond] of [[0, 20], [50, 2000], [100, FS]] as const) {
      const s = tone(1000, "noise", { value: 100, density });
      s.channels[0].volume = 0;
      const { left } = render(s, 2);
      const nonzero = left.subarray(4800).reduce((n, v) => n + (v !== 0 ? 1 : 0), 0) / ((left.length - 4800) / FS);
      expect(nonzero / perSecond, `density ${density}`).toBeGreaterThan(0.85);
      expect(nonzero / perSecond, `density ${density}`).toBeLessThan(1.15);
    }
  });

  it("color tilts the spectrum around 1 kHz: +100 lifts 10 kHz over 100 Hz by about 12 dB", () => {
    const flat = noiseSpectrum({ color: 0 }, 3), bright = noiseSpectrum({ color: 100 }, 3), dark = noiseSpectrum({ color: -100 }, 3);
    const band = (p: Float64Array, f: number) => {
      let s = 0;
      for (let k = Math.round((f * 0.8 * 4096) / FS); k <= Math.round((f * 1.25 * 4096) / FS); k++) s += p[k];
      return 10 * Math.log10(s);
    };
    const tilt = (p: Float64Array) => band(p, 10000) - band(p, 100) - (band(flat, 10000) - band(flat, 100));
    expect(tilt(bright)).toBeGreaterThan(10);
    expect(tilt(bright)).toBeLessThan(13);
    expect(tilt(dark)).toBeLessThan(-10);
    expect(tilt(dark)).toBeGreaterThan(-13);
  });
});

describe("bitcrusher", () => {
  function levels(bits: number): { count: number; values: number[] } {
    const s = tone(440, "bitcrusher", { value: bits }, "sawtooth");
    const { left } = render(s, 0.5);
    const set = new Set<number>();
    for (let i = 4800; i < left.length; i++) set.add(left[i]);
    return { count: set.size, values: [...set].sort((a, b) => a - b) };
  }

  for (const bits of [1, 2, 3, 4, 6]) {
    it(`${bits} bit${bits > 1 ? "s" : ""}: at most ${2 ** bits} distinct sample values, and nearly all of them used`, () => {
      const { count, values } = levels(bits);
      expect(count).toBeLessThanOrEqual(2 ** bits);
      expect(count).toBeGreaterThanOrEqual(2 ** bits - 1 - (bits > 3 ? 2 : 0));
      // Evenly spaced levels (a uniform quantiser).
      const steps = values.slice(1).map((v, i) => v - values[i]);
      expect(Math.max(...steps) - Math.min(...steps)).toBeLessThan(1e-6);
    });
  }

  it("more bits, less quantisation noise: 6 dB per bit", () => {
    const dry = render(tone(440), 0.5).left;
    const err = (bits: number) => {
      const { left } = render(tone(440, "bitcrusher", { value: bits }), 0.5);
      let e = 0;
      for (let i = 4800; i < left.length; i++) e += (left[i] - dry[i]) ** 2;
      return 10 * Math.log10(e);
    };
    expect(err(6) - err(10)).toBeCloseTo(24, -0.5);
  });
});

describe("frequencyShifter", () => {
  const size = 2 ** 16;
  for (const [f, shift] of [[1000, 50], [1000, -200], [5000, 500], [300, 123]] as const) {
    it(`moves a ${f} Hz sine to ${f + shift} Hz, the image at ${f - shift} Hz at least 40 dB down`, () => {
      const { left, right } = render(tone(f, "frequencyShifter", { value: shift }), 1.6);
      for (const x of [left, right]) {
        expect(Math.abs(peakFrequency(x.subarray(9600, 9600 + size), FS, size) - (f + shift))).toBeLessThan(0.05);
        const mag = magnitude(x, size, 9600, size);
        expect(rel(mag, f - shift, f + shift, size)).toBeLessThan(-40);
        expect(rel(mag, f, f + shift, size)).toBeLessThan(-40);
      }
    });
  }
});

describe("harmonizer", () => {
  const size = 2 ** 16;
  for (const value of [100, 50]) {
    it(`adds harmonics 2-5 at ${value / 100} x 0.2/n of the fundamental (within 1 dB)`, () => {
      const { left } = render(tone(220, "harmonizer", { value }), 1.6);
      const mag = magnitude(left, size, 4800, size);
      for (let n = 2; n <= 5; n++) {
        expect(Math.abs(rel(mag, 220 * n, 220, size) - db(((value / 100) * 0.2) / n)), `harmonic ${n}`).toBeLessThan(0.1);
      }
      expect(rel(mag, 220 * 6, 220, size)).toBeLessThan(-80);
    });
  }

  it("drops harmonics that would pass 0.45 fs", () => {
    const { left } = render(tone(5000, "harmonizer", { value: 100 }), 0.5);
    const mag = magnitude(left, 16384, 4800, 16384);
    expect(Math.abs(rel(mag, 20000, 5000, 16384) - db(0.2 / 4))).toBeLessThan(0.1);
    expect(rel(mag, 48000 - 25000, 5000, 16384)).toBeLessThan(-80); // the 5th would alias to 23 kHz
  });
});

/** Frequency of the strongest component away from `avoid` in the window at t seconds. */
function strongestAway(x: Float32Array, t: number, avoid: number, size = 8192): number {
  const mag = magnitude(x, size, Math.round(t * FS), size);
  let k = 0;
  for (let i = 5; i < mag.length - 1; i++) {
    const hz = (i * FS) / size;
    if (Math.abs(hz - avoid) < 25) continue;
    if (mag[i] > mag[k]) k = i;
  }
  const a = db(mag[k - 1]), b = db(mag[k]), c = db(mag[k + 1]);
  return ((k + (0.5 * (a - c)) / (a - 2 * b + c)) * FS) / size;
}

const frac = (x: number) => x - Math.floor(x);
const circ = (a: number, b: number) => Math.min(frac(a - b), frac(b - a));

/** Changes channel 1 while playing and renders on. */
function retune(r: { engine: Engine }, state: AudioState, freq: number, seconds: number): Float32Array {
  state.channels[0].frequency = freq;
  r.engine.apply(state);
  return renderFrames(r.engine, Math.round(seconds * FS), 128).left;
}

describe("shepard", () => {
  for (const [direction, sign] of [["up", 1], ["down", -1]] as const) {
    it(`layers glide ${direction} at the set rate in octave steps (octaves 3) and follow the channel`, () => {
      const s = tone(440, "shepard", { value: 0.5, direction, octaves: 3 });
      const r = render(s, 1.2);
      // All layers share one pitch class: delta = log2(F / f) mod 1 = frac(sign * rate * t + 1/2).
      for (const t of [0.2, 0.5, 0.8, 1.0]) {
        const F = strongestAway(r.left, t, 440);
        const mid = t + 4096 / FS;
        expect(circ(Math.log2(F / 440), sign * 0.5 * mid + 0.5), `t = ${t}`).toBeLessThan(0.02);
      }
      // Retune the channel: the layers move with it.
      const after = retune(r, s, 550, 0.8);
      const t0 = 1.2;
      for (const t of [0.3, 0.6]) {
        const F = strongestAway(after, t, 550);
        expect(circ(Math.log2(F / 550), sign * 0.5 * (t0 + t + 4096 / FS) + 0.5), `after, t = ${t}`).toBeLessThan(0.02);
      }
    });
  }

  it("keeps a constant total level while gliding and goes silent when no channel sounds", () => {
    const s = tone(440, "shepard");
    const r = render(s, 2.2);
    const dry = render(tone(440), 2.2).left;
    const layers = r.left.map((v, i) => v - dry[i]); // the channel restarts at phase 0 both times
    const env: number[] = [];
    for (let i = 4800; i + 4800 <= layers.length; i += 4800) env.push(rms(layers, i, i + 4800));
    // Loudnesses (2/3)(1/2 - 1/2 cos(2 pi x_j)) at thirds of a cycle apart: their squares sum to
    // 1/2 at every moment, so the layers' total RMS is a steady 0.15 * sqrt(1/2 * 1/2) = 0.075.
    expect(Math.max(...env) / Math.min(...env)).toBeLessThan(1.1);
    expect(Math.abs(db(rms(layers, 4800) / 0.075))).toBeLessThan(0.3);
    s.channels[0].frequency = 0;
    r.engine.apply(s);
    const tail = renderFrames(r.engine, 9600, 128).left;
    expect(peak(tail.subarray(4800))).toBe(0);
  });
});

describe("supersaw", () => {
  const size = 2 ** 17;
  const ratio = (cents: number) => 2 ** (cents / 1200);

  for (const value of [100, -100]) {
    it(`value ${value}: five saw voices spread ${value > 0 ? "up" : "down"} to ${value / 2} cents`, () => {
      const mag = magnitude(mono(render(tone(1000, "supersaw", { value }), 3)), size, 4800, size);
      const ref = levelAt(magnitude(render(tone(1000), 3).left, size, 4800, size), 1000, FS, size, 1);
      for (let k = 1; k <= 4; k++) {
        // Voice k: saw fundamental 2/pi at the tone's level, times its mono pan gain (>= 0.54).
        const f = 1000 * ratio((k * value) / 8);
        expect(db(levelAt(mag, f, FS, size, 0.5) / ref), `voice ${k}`).toBeGreaterThan(-10);
        expect(db(levelAt(mag, 2 * f, FS, size, 0.5) / ref), `voice ${k}, 2nd harmonic`).toBeGreaterThan(-16);
      }
      // Nothing on the other side of the channel.
      const mirror = 1000 * ratio((-value) / 4);
      expect(db(levelAt(mag, mirror, FS, size, 1) / ref)).toBeLessThan(-40);
    });
  }

  it("each voice sits at the channel's tone level (saw fundamental 2/pi, equal-power pan)", () => {
    const { left } = render(tone(1000, "supersaw", { value: 100 }), 3);
    const dry = render(tone(1000), 3).left;
    const mag = magnitude(left, size, 4800, size);
    const ref = levelAt(magnitude(dry, size, 4800, size), 1000, FS, size, 1);
    const f1 = 1000 * ratio(12.5);
    const pan = Math.cos(((-0.5 + 1) * Math.PI) / 4); // voice 1 leans left
    expect(db(levelAt(mag, f1, FS, size, 0.5) / ref)).toBeCloseTo(db((2 / Math.PI) * pan), 0);
  });

  it("follows a channel change and is silent when no channel sounds", () => {
    const s = tone(1000, "supersaw", { value: 100 });
    const r = render(s, 0.5);
    const after = retune(r, s, 1500, 3);
    const mag = magnitude(after, size, 9600, size); // left: voice 4 (50 cents) leans right, -22 dB
    expect(db(levelAt(mag, 1500 * ratio(37.5), FS, size, 0.5) / levelAt(mag, 1500, FS, size, 1))).toBeGreaterThan(-12);
    expect(db(levelAt(mag, 1000 * ratio(37.5), FS, size, 0.5) / levelAt(mag, 1500, FS, size, 1))).toBeLessThan(-60);
    s.channels[0].frequency = 0;
    r.engine.apply(s);
    const tail = renderFrames(r.engine, 24000, 128).left; // the voices swell out over ~20 ms
    expect(peak(tail.subarray(7200))).toBeLessThan(2e-3);
    expect(peak(tail.subarray(19200))).toBe(0);
  });
});

describe("vocoder", () => {
  /** Output/dry level (dB) of the harmonic nearest f in the window starting at t. */
  function response(out: Float32Array, dry: Float32Array, t: number, f: number): number {
    const size = 8192, off = Math.round(t * FS);
    return db(levelAt(magnitude(out, size, off, size), f, FS, size, 4) / levelAt(magnitude(dry, size, off, size), f, FS, size, 4));
  }

  it("speaks vowels: 'a' favours 770 Hz over 2.3 kHz, 'i' the reverse", () => {
    const out = render(tone(110, "vocoder", { value: 100 }, "sawtooth"), 1.2).left;
    const dry = render(tone(110, undefined, {}, "sawtooth"), 1.2).left;
    // 'a' (F1 730, F2 1090) holds from 0 to 0.26 s; 'i' (F1 270, F2 2290) from 0.8 to 1.06 s.
    const a = response(out, dry, 0.05, 770) - response(out, dry, 0.05, 2310);
    const i = response(out, dry, 0.85, 2310) - response(out, dry, 0.85, 770);
    expect(a).toBeGreaterThan(5);
    expect(i).toBeGreaterThan(10);
  });

  it("follows a channel change and is silent when no channel sounds", () => {
    const s = tone(600, "vocoder", { value: 100 });
    const r = render(s, 0.3);
    const after = retune(r, s, 1200, 0.5);
    expect(peakFrequency(after.subarray(4800, 4800 + 16384), FS, 16384)).toBeCloseTo(1200, 0);
    s.channels[0].frequency = 0;
    r.engine.apply(s);
    expect(peak(renderFrames(r.engine, 14400, 128).left.subarray(9600))).toBeLessThan(1e-6);
  });
});

describe("harmonicExciter", () => {
  const size = 32768;
  it("adds the 2nd and 3rd harmonics of the high band, scaled by the value, nothing higher", () => {
    const at = (value: number, f: number) => {
      const { left } = render(tone(f, "harmonicExciter", { value }), 1);
      return magnitude(left, size, 9600, size);
    };
    const full = at(100, 1000), half = at(50, 1000), off = at(0, 1000);
    expect(rel(full, 2000, 1000, size)).toBeGreaterThan(-18);
    expect(rel(full, 2000, 1000, size)).toBeLessThan(-13);
    expect(rel(full, 3000, 1000, size)).toBeGreaterThan(-21);
    expect(rel(full, 3000, 1000, size)).toBeLessThan(-16);
    expect(rel(full, 4000, 1000, size)).toBeLessThan(-45);
    expect(rel(full, 5000, 1000, size)).toBeLessThan(-45);
    expect(rel(full, 2000, 1000, size) - rel(half, 2000, 1000, size)).toBeCloseTo(6.02, 0);
    expect(rel(off, 2000, 1000, size)).toBeLessThan(-100);
    // A low tone sits below the band: far less excitation.
    const low = at(100, 200);
    expect(rel(low, 400, 200, size)).toBeLessThan(rel(full, 2000, 1000, size) - 15);
  });
});

describe("distortion", () => {
  const size = 32768;
  function measure(value: number) {
    const { left } = render(tone(440, "distortion", { value }), 1);
    const mag = magnitude(left, size, 9600, size);
    return { h3: rel(mag, 1320, 440, size), h2: rel(mag, 880, 440, size), level: rms(left, 9600) };
  }

  it("more drive, more odd harmonics; symmetric clipping adds no even ones", () => {
    const clean = measure(0), mid = measure(30), hot = measure(100);
    expect(clean.h3).toBeLessThan(-40);
    expect(mid.h3).toBeGreaterThan(clean.h3 + 10);
    expect(hot.h3).toBeGreaterThan(-15);
    expect(hot.h2).toBeLessThan(-80);
  });

  it("is level-compensated: the RMS stays within 1 dB of the dry tone at any drive", () => {
    const dry = rms(render(tone(440), 1).left, 9600);
    for (const value of [0, 30, 70, 100]) expect(Math.abs(db(measure(value).level / dry)), `value ${value}`).toBeLessThan(1);
  });
});
