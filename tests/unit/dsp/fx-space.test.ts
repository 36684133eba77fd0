// Signatures of the filter, time and space effects (slots 15-29), each proved from measured
// output: swept cutoffs, comb spacing, moving notches, echo times, decay times, grain spectra,
// pan laws and stereo width. The master compressor is switched off so levels are linear.

import { describe, expect, it } from "vitest";
import { EFFECTS } from "../../../dsp/host/catalogue";
import type { Engine } from "../../../dsp/host/engine";
import { defaultEffect, type AudioState, type Waveform } from "../../../dsp/host/state";
import { FS, db, engineWith, levelAt, magnitude, maxStep, rms, renderFrames, singleTone, type Stereo } from "./helpers";

function withFx(state: AudioState, id: string, value: number, extras: Record<string, unknown> = {}): AudioState {
  const def = EFFECTS.find((d) => d.id === id);
  if (!def) throw new Error(id);
  state.effects[id] = { ...defaultEffect(def), enabled: true, value, ...extras };
  return state;
}

function tone(freq: number, w: Waveform = "sine"): AudioState {
  return singleTone(freq, w);
}

function start(state: AudioState): Engine {
  const e = engineWith(state);
  e.setCompressor(false);
  e.start();
  return e;
}

function render(state: AudioState, seconds: number): Stereo {
  return renderFrames(start(state), Math.round(seconds * FS), 128);
}

/** Renders `seconds`, switching channel 1 off after `burst` seconds. */
function burst(state: AudioState, burstSeconds: number, seconds: number): Stereo {
  const e = start(state);
  const first = Math.round(burstSeconds * FS);
  const a = renderFrames(e, first, 128);
  state.channels[0].enabled = false;
  e.apply(state);
  const b = renderFrames(e, Math.round(seconds * FS) - first, 128);
  const join = (x: Float32Array, y: Float32Array): Float32Array => {
    const out = new Float32Array(x.length + y.length);
    out.set(x);
    out.set(y, x.length);
    return out;
  };
  return { left: join(a.left, b.left), right: join(a.right, b.right) };
}

/** |wet / dry| at each frequency, from windowed spectra of x[offset .. offset + size). */
function transfer(wet: Float32Array, dry: Float32Array, offset: number, size: number, freqs: number[]): number[] {
  const w = magnitude(wet, size, offset, size);
  const d = magnitude(dry, size, offset, size);
  const width = FS / size;
  return freqs.map((f) => levelAt(w, f, FS, size, width) / levelAt(d, f, FS, size, width));
}

const harmonics = (f0: number, lo: number, hi: number): number[] => {
  const out: number[] = [];
  for (let f = f0 * Math.ceil(lo / f0); f <= hi; f += f0) out.push(f);
  return out;
};

/** The delay D (s) whose comb cos(2 pi f D) best matches the log transfer (a comb's period). */
function combDelay(freqs: number[], gains: number[], lo: number, hi: number): number {
  const lg = gains.map((g) => db(g));
  const mean = lg.reduce((a, b) => a + b, 0) / lg.length;
  let best = lo;
  let bestScore = -Infinity;
  for (let d = lo; d <= hi; d += 0.000005) {
    let s = 0;
    for (let i = 0; i < freqs.length; i++) s += (lg[i] - mean) * Math.cos(2 * Math.PI * freqs[i] * d);
    if (s > bestScore) { bestScore = s; best = d; }
  }
  return best;
}

/** Energy above `hz` in frames every `hop` samples (a brightness envelope), via 512-point spectra. */
function brightness(x: Float32Array, hop: number, hz: number): number[] {
  const out: number[] = [];
  const frame = 512;
  const k0 = Math.round((hz * frame) / FS);
  for (let o = 0; o + frame <= x.length; o += hop) {
    const m = magnitude(x, frame, o, frame);
    let e = 0;
    for (let k = k0; k < m.length; k++) e += m[k] * m[k];
    out.push(e);
  }
  return out;
}

/** Frequency (Hz) of the strongest periodicity of an envelope sampled every `dt` s (DFT scan). */
function envelopeRate(env: number[], dt: number, lo: number, hi: number): number {
  const mean = env.reduce((a, b) => a + b, 0) / env.length;
  let best = lo;
  let bestP = -1;
  for (let f = lo; f <= hi; f += 0.01) {
    let re = 0, im = 0;
    env.forEach((v, i) => { re += (v - mean) * Math.cos(2 * Math.PI * f * i * dt); im += (v - mean) * Math.sin(2 * Math.PI * f * i * dt); });
    const p = re * re + im * im;
    if (p > bestP) { bestP = p; best = f; }
  }
  return best;
}

function same(a: Float32Array, b: Float32Array): boolean {
  return a.length === b.length && a.every((v, i) => Object.is(v, b[i]));
}

describe("acidFilter", () => {
  it("sweeps a resonant low-pass at the set rate", () => {
    const { left } = render(withFx(tone(110, "sawtooth"), "acidFilter", 4), 3);
    const frame = 512;
    const env = brightness(left.subarray(4800), frame, 1500);
    expect(envelopeRate(env, frame / FS, 1, 10)).toBeCloseTo(4, 0);
  });

  it("resonates at the top of the sweep (0.1 Hz: top at 5 s, 4.07 kHz)", () => {
    const secs = 5.1;
    const wet = render(withFx(tone(110, "sawtooth"), "acidFilter", 0.1), secs).left;
    const dry = render(tone(110, "sawtooth"), secs).left;
    const size = 4096;
    const at = Math.round(5 * FS) - size / 2;
    const fc = 180 * 2 ** 4.5;
    const near = Math.round(fc / 110) * 110;
    const [res, above, low] = transfer(wet, dry, at, size, [near, 2 * near, 440]);
    expect(db(res), "boost at the cutoff").toBeGreaterThan(6);
    expect(db(above), "an octave above the cutoff").toBeLessThan(-8);
    expect(Math.abs(db(low) - db(0.6)), "passband = output gain 0.6").toBeLessThan(1.5);
  });
});

describe("filterEnvelope", () => {
  it("opens and closes at the set rate, opening fast and closing slowly", () => {
    const rate = 2;
    const { left } = render(withFx(tone(110, "sawtooth"), "filterEnvelope", rate), 3);
    const frame = 480; // 10 ms
    const env = brightness(left, frame, 1500);
    expect(envelopeRate(env.slice(2), frame / FS, 0.5, 8)).toBeCloseTo(rate, 0);
    // Each cycle peaks early (attack over the first 10 %) and ends dark.
    const per = FS / rate / frame;
    for (let c = 1; c < 5; c++) {
      const cyc = env.slice(Math.round(c * per), Math.round((c + 1) * per));
      const top = cyc.indexOf(Math.max(...cyc)) / cyc.length;
      expect(top, `cycle ${c} peak position`).toBeGreaterThan(0.05);
      expect(top).toBeLessThan(0.25);
      expect(db(cyc[cyc.length - 2] / Math.max(...cyc)) / 2).toBeLessThan(-20);
    }
  });
});

describe("filterSweep", () => {
  it("reaches the set cutoff at the top of the sweep and starts closed", () => {
    const secs = 4.1;
    const wet = render(withFx(tone(100, "sawtooth"), "filterSweep", 2), secs).left;
    const dry = render(tone(100, "sawtooth"), secs).left;
    const size = 4096;
    const [pass, cut, stop] = transfer(wet, dry, Math.round(4 * FS) - size / 2, size, [500, 2000, 4000]);
    expect(Math.abs(db(pass))).toBeLessThan(1.5);
    expect(Math.abs(db(cut) - db(0.9))).toBeLessThan(2); // RBJ low-pass: Q at the cutoff
    expect(db(stop)).toBeLessThan(-9);
    const [early] = transfer(wet, dry, 2400, size, [1000]);
    expect(db(early), "closed at the start (cutoff 62.5 Hz)").toBeLessThan(-40);
  });
});

describe("combFilter", () => {
  for (const ms of [5, 2.5]) {
    it(`${ms} ms: peaks every ${1000 / ms} Hz with notches halfway, feedback 0.7`, () => {
      const wet = render(withFx(tone(50, "sawtooth"), "combFilter", ms), 0.5).left;
      const dry = render(tone(50, "sawtooth"), 0.5).left;
      const freqs = harmonics(50, 50, 6000);
      const size = 16384;
      const h = transfer(wet, dry, 4800, size, freqs);
      const d = ms / 1000;
      expect(combDelay(freqs, h, 0.0005, 0.02) * 1000).toBeCloseTo(ms, 1);
      // Against the theory 0.714 / |1 - 0.7 e^(-j w D)|: peaks +7.5 dB, notches -7.5 dB.
      freqs.forEach((f, i) => {
        const th = 0.714 / Math.hypot(1 - 0.7 * Math.cos(2 * Math.PI * f * d), 0.7 * Math.sin(2 * Math.PI * f * d));
        expect(Math.abs(db(h[i]) - db(th)), `${f} Hz`).toBeLessThan(1.5);
      });
    });
  }
});

describe("phaser", () => {
  it("eight all-pass stages put notches where the phase reaches 180 degrees, and they move", () => {
    // 0.1 Hz: the break frequency is 250 Hz at the start and 250 * 2^3.5 Hz at 5 s.
    const secs = 5.1;
    const wet = render(withFx(tone(60, "sawtooth"), "phaser", 0.1), secs).left;
    const dry = render(tone(60, "sawtooth"), secs).left;
    const freqs = harmonics(60, 60, 8000);
    const size = 8192;
    const theory = (f: number, fb: number): number => {
      const phi = -16 * Math.atan(Math.tan((Math.PI * f) / FS) / Math.tan((Math.PI * fb) / FS));
      return Math.abs(Math.cos(phi / 2));
    };
    const deepest: number[] = [];
    for (const [at, fb] of [[2400, 250], [Math.round(5 * FS) - size / 2, 250 * 2 ** 3.5]] as const) {
      const h = transfer(wet, dry, at, size, freqs);
      let worst = 0;
      freqs.forEach((f, i) => {
        const t = theory(f, fb);
        if (t > 0.7) expect(db(h[i]), `${f} Hz near a peak (fb ${fb.toFixed(0)})`).toBeGreaterThan(db(t) - 2);
        if (t < 0.1) expect(db(h[i]), `${f} Hz in a notch (fb ${fb.toFixed(0)})`).toBeLessThan(-14);
        if (h[i] < h[worst]) worst = i;
      });
      deepest.push(freqs[worst]);
    }
    expect(deepest[0]).not.toBe(deepest[1]);
  });
});

describe("flanger", () => {
  it("feedback comb whose spacing follows the swept delay (1 ms at the start, 5 ms at the top)", () => {
    const secs = 5.1;
    const wet = render(withFx(tone(40, "sawtooth"), "flanger", 0.1), secs).left;
    const dry = render(tone(40, "sawtooth"), secs).left;
    const freqs = harmonics(40, 40, 8000);
    const size = 8192;
    for (const [at, ms] of [[2400, 1], [Math.round(5 * FS) - size / 2, 5]] as const) {
      const h = transfer(wet, dry, at, size, freqs);
      expect(combDelay(freqs, h, 0.0005, 0.008) * 1000, `delay at ${at}`).toBeCloseTo(ms, 1);
      // Peaks (x1.75) and dips (x0.19) of (1 + z^-D / (1 - 0.6 z^-D)) / 2.
      const d = ms / 1000;
      const th = freqs.map((f) => {
        const re = Math.cos(2 * Math.PI * f * d), im = -Math.sin(2 * Math.PI * f * d);
        const den = { re: 1 - 0.6 * re, im: -0.6 * im };
        const q = den.re * den.re + den.im * den.im;
        const zr = (re * den.re + im * den.im) / q, zi = (im * den.re - re * den.im) / q;
        return Math.hypot(1 + zr, zi) / 2;
      });
      const big = freqs.map((_, i) => i).filter((i) => th[i] > 1.5);
      const small = freqs.map((_, i) => i).filter((i) => th[i] < 0.3);
      const avg = (ix: number[]): number => ix.reduce((s, i) => s + db(h[i]), 0) / ix.length;
      expect(avg(big) - avg(small), "peak-to-dip depth").toBeGreaterThan(12);
    }
  });
});

describe("chorus", () => {
  it("value is the depth: no spread at 0 %, spreading the spectrum more as it grows", () => {
    const spread = (depth: number): number => {
      const { left } = render(withFx(tone(1000), "chorus", depth), 2.2);
      const size = 65536;
      const m = magnitude(left, size, 9600, size);
      const bin = FS / size;
      let inside = 0, outside = 0;
      for (let k = Math.round(500 / bin); k < Math.round(1500 / bin); k++) {
        if (Math.abs(k * bin - 1000) < 6) inside += m[k] ** 2; else outside += m[k] ** 2;
      }
      return db(Math.sqrt(outside / inside));
    };
    const s0 = spread(0), s30 = spread(30), s100 = spread(100);
    expect(s0).toBeLessThan(-60);
    expect(s30).toBeGreaterThan(-40);
    expect(s100).toBeGreaterThan(s30 + 6);
  });

  it("spreads three voices across the stereo field", () => {
    const { left, right } = render(withFx(tone(440), "chorus", 50), 1);
    let diff = 0;
    for (let i = 9600; i < left.length; i++) diff += (left[i] - right[i]) ** 2;
    expect(Math.sqrt(diff / (left.length - 9600)) / rms(left, 9600)).toBeGreaterThan(0.1);
  });
});

describe("glitch", () => {
  const rate = 4;
  const secs = 6;
  const dryRun = (): Stereo => render(tone(300), secs);
  it("drops out on the grid of the set rate, deterministically and without clicks", () => {
    const a = render(withFx(tone(300), "glitch", rate), secs);
    const b = render(withFx(tone(300), "glitch", rate), secs);
    expect(same(a.left, b.left) && same(a.right, b.right)).toBe(true);
    const dry = dryRun().left;
    const frame = 120; // 2.5 ms
    const period = FS / rate;
    const level = rms(dry, 4800);
    let drops = 0;
    let onGrid = 0;
    let quiet = false;
    for (let o = 0; o + frame <= a.left.length; o += frame) {
      const q = rms(a.left, o, o + frame) < 0.02 * level;
      if (q && !quiet) {
        drops++;
        const phase = (o % period) / period;
        if (phase < 0.03 || phase > 0.99) onGrid++;
      }
      quiet = q;
    }
    expect(drops).toBeGreaterThan(2);
    expect(onGrid).toBe(drops);
    // Click-free: no step beyond the tone's own plus the 2.5 ms fades' slope (a click would be
    // a jump of the order of the amplitude, 25 times the tone's step).
    expect(maxStep(a.left)).toBeLessThan(maxStep(dry) * 1.3);
  });

  it("stutters: some events replay the sound instead of passing it", () => {
    const a = render(withFx(tone(300), "glitch", rate), secs).left;
    const dry = dryRun().left;
    const period = FS / rate;
    let replaced = 0;
    for (let k = 1; k < secs * rate - 1; k++) {
      const o = Math.round(k * period) + 480, e = Math.round((k + 1) * period) - 480;
      let err = 0;
      for (let i = o; i < e; i++) err += (a[i] - dry[i]) ** 2;
      const loud = rms(a, o, e) > 0.5 * rms(dry, o, e);
      if (loud && Math.sqrt(err / (e - o)) > 0.1 * rms(dry, o, e)) replaced++;
    }
    expect(replaced).toBeGreaterThan(2);
  });
});

describe("granular", () => {
  it("grain size sets the spectral spread (about 1 / (2 x size)), deterministically", () => {
    const bandwidth = (ms: number): number => {
      const { left } = render(withFx(tone(1000), "granular", ms), 2.5);
      const size = 65536;
      const m = magnitude(left, size, 24000, size);
      const bin = FS / size;
      let p = 0, s2 = 0;
      for (let k = Math.round(600 / bin); k < Math.round(1400 / bin); k++) {
        const f = k * bin - 1000;
        p += m[k] ** 2;
        s2 += f * f * m[k] ** 2;
      }
      return Math.sqrt(s2 / p);
    };
    const b10 = bandwidth(10), b40 = bandwidth(40);
    expect(b10).toBeGreaterThan(50 * 0.7);
    expect(b10).toBeLessThan(50 * 1.4);
    expect(b40).toBeGreaterThan(12.5 * 0.7);
    expect(b40).toBeLessThan(12.5 * 1.4);
    const a = render(withFx(tone(1000), "granular", 80), 0.5);
    const b = render(withFx(tone(1000), "granular", 80), 0.5);
    expect(same(a.left, b.left)).toBe(true);
  });

  it("keeps the input's level", () => {
    const wet = render(withFx(tone(440), "granular", 80), 2).left;
    const dry = render(tone(440), 2).left;
    expect(Math.abs(db(rms(wet, 24000) / rms(dry, 24000)))).toBeLessThan(2);
  });
});

describe("darkAmbientGranulator", () => {
  it("0 % is the dry signal", () => {
    const wet = render(withFx(tone(440, "sawtooth"), "darkAmbientGranulator", 0), 0.5);
    const dry = render(tone(440, "sawtooth"), 0.5);
    expect(same(wet.left, dry.left)).toBe(true);
  });

  it("leaves a dark tail spread over the 5-500 ms lines", () => {
    const b = 0.3;
    const out = burst(withFx(tone(440, "sawtooth"), "darkAmbientGranulator", 100), b, 3);
    const dry = render(tone(440, "sawtooth"), b);
    const from = Math.round((b + 0.02) * FS);
    const slice = (s: number, e: number): number => rms(out.left, from + Math.round(s * FS), from + Math.round(e * FS)) + rms(out.right, from + Math.round(s * FS), from + Math.round(e * FS));
    const early = slice(0, 0.1), late = slice(0.3, 0.5), gone = slice(2.0, 2.6);
    expect(early).toBeGreaterThan(0.05 * rms(dry.left));
    expect(late).toBeGreaterThan(0.05 * early);
    expect(db(gone / early)).toBeLessThan(-40);
    // Dark: the share of energy above 2 kHz is far smaller in the tail than in the sawtooth.
    const high = (x: Float32Array, o: number): number => {
      const m = magnitude(x, 8192, o, 8192);
      let p = 0, h = 0;
      m.forEach((v, k) => { p += v * v; if ((k * FS) / 8192 > 2000) h += v * v; });
      return h / p;
    };
    expect(10 * Math.log10(high(out.left, from) / high(dry.left, 2400))).toBeLessThan(-12);
  });
});

describe("pingPong", () => {
  it("echoes at d on the left and 1.5 d on the right, then cross-fed at 2.5 d", () => {
    const d = 0.2;
    const out = burst(withFx(tone(500), "pingPong", d, { feedback: 0.5, mix: 1 }), 0.05, 0.75);
    const onset = (x: Float32Array, from: number): number => {
      const th = 0.3 * 0.15;
      for (let i = Math.round(from * FS); i < x.length; i++) if (Math.abs(x[i]) > th) return i / FS;
      return Infinity;
    };
    expect(onset(out.left, 0.01)).toBeCloseTo(d, 2);
    expect(onset(out.right, 0.01)).toBeCloseTo(1.5 * d, 2);
    // Second echoes: each side hears the other's first echo after its own delay: 2.5 d, at feedback x.
    const lvl = (x: Float32Array, t: number): number => rms(x, Math.round((t + 0.01) * FS), Math.round((t + 0.04) * FS));
    const first = lvl(out.left, d), second = lvl(out.left, 2.5 * d);
    expect(second / first).toBeCloseTo(0.5, 1);
    expect(lvl(out.right, 2.5 * d) / lvl(out.right, 1.5 * d)).toBeCloseTo(0.5, 1);
    expect(lvl(out.left, 1.5 * d)).toBeLessThan(0.01 * first); // nothing on the left at 1.5 d
  });
});

describe("reverb", () => {
  for (const value of [30, 60, 90]) {
    it(`value ${value}: the tail's RT60 is ${(value / 30).toFixed(0)} s within 20 %`, () => {
      const rt = value / 30;
      const cut = 0.5;
      const out = burst(withFx(tone(440), "reverb", value), cut, cut + 0.05 + rt * 1.2);
      // Schroeder backward integration of the tail (both ears), then a line through -5..-25 dB.
      const from = Math.round((cut + 0.05) * FS);
      const n = out.left.length - from;
      const edc = new Float64Array(n);
      let acc = 0;
      for (let i = n - 1; i >= 0; i--) {
        acc += out.left[from + i] ** 2 + out.right[from + i] ** 2;
        edc[i] = acc;
      }
      const level = (i: number): number => 10 * Math.log10(edc[i] / edc[0]);
      const pts: [number, number][] = [];
      for (let i = 0; i < n; i += 48) {
        const l = level(i);
        if (l <= -5 && l >= -25) pts.push([i / FS, l]);
      }
      const mx = pts.reduce((s, p) => s + p[0], 0) / pts.length, my = pts.reduce((s, p) => s + p[1], 0) / pts.length;
      const slope = pts.reduce((s, p) => s + (p[0] - mx) * (p[1] - my), 0) / pts.reduce((s, p) => s + (p[0] - mx) ** 2, 0);
      const measured = -60 / slope;
      expect(measured).toBeGreaterThan(rt * 0.8);
      expect(measured).toBeLessThan(rt * 1.2);
    });
  }
});

describe("pan360", () => {
  it("circles the head at the set rate with constant total power (equal-power law)", () => {
    const rate = 1;
    const { left, right } = render(withFx(tone(600), "pan360", rate), 2.05);
    const frame = 480;
    let worstPos = 0, pmin = Infinity, pmax = 0;
    for (let o = 4800; o + frame <= left.length; o += frame) {
      const l2 = rms(left, o, o + frame) ** 2, r2 = rms(right, o, o + frame) ** 2;
      const t = (o + frame / 2) / FS;
      const p = (2 / Math.PI) * Math.asin((r2 - l2) / (r2 + l2));
      worstPos = Math.max(worstPos, Math.abs(p - Math.sin(2 * Math.PI * rate * t)));
      pmin = Math.min(pmin, l2 + r2);
      pmax = Math.max(pmax, l2 + r2);
    }
    expect(worstPos).toBeLessThan(0.06);
    expect(db(pmax / pmin) / 2).toBeLessThan(0.3);
  });
});

describe("stereoPan", () => {
  it("places the sound by the equal-power law", () => {
    const centre = render(tone(600), 0.5);
    const c = rms(centre.left, 4800);
    for (const v of [-100, -50, 0, 30, 100]) {
      const { left, right } = render(withFx(tone(600), "stereoPan", v), 0.5);
      const l = rms(left, 4800), r = rms(right, 4800);
      const th = ((v / 100 + 1) * Math.PI) / 4;
      expect(l / c, `left at ${v}`).toBeCloseTo(Math.SQRT2 * Math.cos(th), 2);
      expect(r / c, `right at ${v}`).toBeCloseTo(Math.SQRT2 * Math.sin(th), 2);
    }
  });
});

describe("stereoWidth", () => {
  const source = (): AudioState => withFx(tone(600), "stereoPan", 60);
  it("0 % folds to mono, 100 % leaves the sound unchanged, 200 % doubles the side", () => {
    const mono = render(withFx(source(), "stereoWidth", 0), 0.5);
    expect(same(mono.left, mono.right)).toBe(true);
    const ref = render(source(), 0.5);
    const unity = render(withFx(source(), "stereoWidth", 100), 0.5);
    let err = 0;
    for (let i = 0; i < ref.left.length; i++) err = Math.max(err, Math.abs(unity.left[i] - ref.left[i]), Math.abs(unity.right[i] - ref.right[i]));
    expect(err).toBeLessThan(1e-6);
    const wide = render(withFx(source(), "stereoWidth", 200), 0.5);
    const ms = (s: Stereo): [number, number] => {
      const m = new Float32Array(s.left.length), d = new Float32Array(s.left.length);
      for (let i = 0; i < m.length; i++) { m[i] = (s.left[i] + s.right[i]) / 2; d[i] = (s.left[i] - s.right[i]) / 2; }
      return [rms(m, 4800), rms(d, 4800)];
    };
    const [m0, s0] = ms(ref), [m2, s2] = ms(wide);
    expect(m2 / m0).toBeCloseTo(1, 3);
    expect(s2 / s0).toBeCloseTo(2, 3);
  });
});
