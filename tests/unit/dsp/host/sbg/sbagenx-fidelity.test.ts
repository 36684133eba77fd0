// Schedules written for one construct each, played by the engine and compared with SBaGenX 3.9's
// own render of the same text (`sbagenx -Q -S -O -r 48000 file.sbg`, built from the reference
// source). The numbers are the strongest tonal peaks per ear that SBaGenX's render shows (30-2000 Hz,
// picked as the A/B script in ../shared/reference/sbagenx-tools does, measured once when the test
// was written); each must be among the engine's strongest peaks within 0.6 Hz, the A/B's tolerance.

import { describe, expect, it } from "vitest";
import { createNodeEngine } from "../../../../../dsp/host/node";
import { readSbgVoices } from "../../../../../dsp/host/sbg/index";
import { FS, magnitude, renderFrames, type Stereo } from "../../../dsp/assembly/helpers";

const SIZE = 1 << 20;

/** `seconds` of the schedule from `from` seconds, as the CLI plays it (compressor off). */
function render(text: string, from: number, seconds: number): { out: Stereo; warnings: string[] } {
  const r = readSbgVoices(text);
  if (!r.ok) throw new Error(JSON.stringify(r.errors));
  const e = createNodeEngine(FS);
  e.apply(r.session);
  e.setCompressor(false);
  e.start({ delay: 0 });
  const skip = Math.round(from * FS);
  for (let done = 0; done < skip; done += 16384) e.render(Math.min(16384, skip - done));
  return { out: renderFrames(e, Math.round(seconds * FS)), warnings: r.warnings.map((w) => `${w.line}: ${w.message}`) };
}

/** The k strongest spectral peaks between 30 and 2000 Hz (Hz, refined by a parabola in dB), each
 *  clearing the 1 Hz around it. */
function tonalPeaks(x: Float32Array, k: number): number[] {
  const mag = magnitude(x, SIZE, 0, Math.min(x.length, SIZE));
  const bin = FS / SIZE;
  const lo = Math.ceil(30 / bin), hi = Math.floor(2000 / bin);
  const m = Array.from(mag.slice(0, hi + 2));
  for (let i = 0; i < lo; i++) m[i] = 0;
  const out: number[] = [];
  for (let n = 0; n < k; n++) {
    let best = lo;
    for (let i = lo; i <= hi; i++) if (m[i] > m[best]) best = i;
    if (!(m[best] > 0)) break;
    const [a, b, c] = [mag[best - 1], mag[best], mag[best + 1]].map((v) => Math.log(v + 1e-20));
    const d = a - 2 * b + c !== 0 ? (0.5 * (a - c)) / (a - 2 * b + c) : 0;
    out.push((best + d) * bin);
    const clear = Math.ceil(1 / bin);
    for (let i = Math.max(0, best - clear); i <= best + clear; i++) m[i] = 0;
  }
  return out;
}

/** Every SBaGenX peak of each ear found among the engine's strongest (SBaGenX's count + 4). */
function expectPeaks(out: Stereo, ref: { left: number[]; right: number[] }) {
  for (const ear of ["left", "right"] as const) {
    const ours = tonalPeaks(out[ear], ref[ear].length + 4);
    const missing = ref[ear].filter((f) => !ours.some((g) => Math.abs(f - g) <= 0.6));
    expect({ ear, missing, ours: ours.map((f) => Math.round(f * 100) / 100) }).toEqual({ ear, missing: [], ours: expect.any(Array) });
  }
}

describe("constructs as SBaGenX renders them", () => {
  it("a bell written with a sign (bell-800/40, bell+800/40): an 800 Hz strike, the sign only its phase", () => {
    for (const sign of ["-", "+", ""]) {
      const { out, warnings } = render(`-F 1000\na: 200+10/20\nb: 200+10/20 bell${sign}800/40\n0:00 a\n0:00:22 b\n`, 22, 3);
      expect(warnings).toEqual([]);
      // SBaGenX, 22-25 s: the beat's tones and the bell in both ears (the same for every sign).
      expectPeaks(out, { left: [205.0, 800.0], right: [195.0, 800.0] });
    }
  });

  it("waveNN on a binaural tone: the envelope's ripple at the samples' rate puts sidebands 150 Hz out (30 samples, 5 Hz beat)", () => {
    const text = "wave02: 0 0 0 0 0 1 2 3 4 5 6 7 8 9 9 9 9 8 7 6 5 4 3 2 1 0 0 0 0 0\nt1: wave02:300+5/50\n0:00 t1\n";
    const { out, warnings } = render(text, 20, 4);
    expect(warnings).toEqual([]);
    // SBaGenX, 20-30 s: carriers 302.5 / 297.5 with the envelope's sidebands at +-5 Hz and +-150 Hz.
    expectPeaks(out, { left: [157.5, 297.5, 302.5, 307.5, 447.5, 452.5], right: [147.5, 152.5, 292.5, 297.5, 302.5, 442.5] });
  });

  it("waveNN with few samples: sidebands at 3 and 5 times the beat, which the plain interpolation through the samples has not", () => {
    const { out } = render("wave01: 0 1 0.5 0.8 0.2\nt1: wave01:300+5/50\n0:00 t1\n", 20, 4);
    expectPeaks(out, { left: [277.5, 287.5, 302.5, 312.5, 317.5, 327.5], right: [272.5, 287.5, 297.5, 307.5, 312.5, 322.5] });
  });
  it("tones in place of a tone-set's name (SBaGenX's timing example): each line an unnamed tone-set", () => {
    const { out, warnings } = render("00:00    200+10/20\n00:30    190+8/20\n01:00    180+6/20 pink/10\n", 20, 4);
    expect(warnings).toEqual([]);
    // SBaGenX, 20-30 s: the first line's beat (the next starts 30 minutes later).
    expectPeaks(out, { left: [205.0], right: [195.0] });
    const late = render("00:00    200+10/20\n00:30    190+8/20\n01:00    180+6/20 pink/10\n", 3630, 4).out;
    expectPeaks(late, { left: [183.0], right: [177.0] });
  });
  it("blocks calling blocks, their lines giving tones instead of names (SBaGenX's nested blocks)", () => {
    const text = "off: -\nburst: {\n  +00:00 200+10/20\n  +00:05 210+6/20 pink/10\n}\npair: {\n  +00:00 burst\n  +00:10 burst\n}\n00:00 pair\n00:20 off\n";
    // SBaGenX at 0:20, 6:40 (the inner block's second line) and 10:40 (the second call's first line).
    expectPeaks(render(text, 20, 4).out, { left: [205.0], right: [195.0] });
    expectPeaks(render(text, 400, 4).out, { left: [213.0], right: [207.0] });
    expectPeaks(render(text, 640, 4).out, { left: [205.0], right: [195.0] });
  });

  it("customNN or waveNN on a plain tone: the tone at the envelope's first level, where the beat of 0 holds it", () => {
    const level = (set: string) => {
      const { out, warnings } = render(`custom05: e=1 0.5 1 0.5 0\nwave05: 0.5 1 0.5 0\nt: ${set}\n00:00 t\n`, 20, 2);
      expect(warnings.length).toBe(set.includes(":") ? 1 : 0);
      expectPeaks(out, { left: [300.0], right: [300.0] });
      return Math.sqrt(out.left.reduce((t, x) => t + x * x, 0) / out.left.length);
    };
    // SBaGenX's render, RMS against the plain tone's: custom05 0.500 (0.1768 / 0.3535), wave05 0.541
    // (0.1911 / 0.3535).
    const plain = level("300/50");
    expect(level("custom05:300/50") / plain).toBeCloseTo(0.5, 2);
    expect(level("wave05:300/50") / plain).toBeCloseTo(0.541, 2);
  });

  it("pysbagen's iso:440,7/70 (SBaGenX refuses the file): one warning on its line, played as 440@7/70", () => {
    const { out, warnings } = render("-SE\na: iso:440,7/70 pink/10\n0:00 a\n0:01:00 a\n", 20, 4);
    expect(warnings).toEqual(["2: 'iso:440,7/70' is pysbagen's isochronic syntax, not SBaGen's (SBaGen and SBaGenX refuse it): played as SBaGen+'s 440@7/70"]);
    // The carrier with the gate's sidebands at the pulse rate, in both ears.
    for (const ear of [out.left, out.right]) {
      const p = tonalPeaks(ear, 3);
      expect(p.some((f) => Math.abs(f - 440) < 0.1) && p.some((f) => Math.abs(f - 433) < 0.1) && p.some((f) => Math.abs(f - 447) < 0.1)).toBe(true);
    }
  });
});
