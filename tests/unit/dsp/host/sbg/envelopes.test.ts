// User envelopes: SBaGen's waveNN and SBaGenX's customNN read into the voices' envelope tables, and
// the engine playing them: the level of a binaural pair follows its envelope at the beat, an
// isochronic tone's follows its customNN at the pulse instead of the gate; the writer gives them
// back; the published customNN example reads without a warning.

import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import type { Voice } from "../../../../../dsp/host/model/voices";
import { customEnvelope, waveEnvelope } from "../../../../../dsp/host/sbg/envelopes";
import { readSbgVoices, toSbg } from "../../../../../dsp/host/sbg/index";
import { FS, rms } from "../../../dsp/assembly/helpers";
import { playVoices } from "../play-voices";

const EXAMPLE = fileURLToPath(new URL("../../../../../../shared/reference/sbagen/examples/SBaGenX__basics_prog-custom-envelope-iso-demo.sbg", import.meta.url));

const play = (voices: Voice[], seconds: number, from = 0.5) => playVoices(voices, seconds, { from });

/** RMS over `ms`-millisecond windows. */
const windows = (x: Float32Array, ms: number) => Array.from({ length: Math.floor(x.length / ((FS * ms) / 1000)) }, (_, k) => rms(x, (k * FS * ms) / 1000, ((k + 1) * FS * ms) / 1000));

describe("envelope definitions", () => {
  it("waveNN: SBaGenX's tapered sinc through the samples, rescaled to 0..1 (at the samples' phases the samples keep their proportions)", () => {
    const samples = [0, 5.5, 10, 8, 10, 7.2, 4.7, 2];
    const env = waveEnvelope(samples) as number[];
    expect(env).toHaveLength(256);
    expect(Math.min(...env)).toBe(0);
    expect(Math.max(...env)).toBe(1);
    // At the samples' own phases the curve is the samples, up to the rescaling (an affine map).
    const at = (j: number) => env[(j * 256) / samples.length];
    for (const j of [2, 3, 5, 6]) expect((at(j) - at(0)) / (at(1) - at(0))).toBeCloseTo((samples[j] - samples[0]) / (samples[1] - samples[0]), 2);
    expect(waveEnvelope([3, 3, 3])).toBe("a waveform whose samples are all equal has no shape");
  });

  it("customNN: scaled by the largest only (0 stays silence), joined linearly, hard, or by smoothstep", () => {
    expect(customEnvelope([0, 2, 4, 2], 1)).toEqual([0, 0.5, 1, 0.5]);
    const hard = customEnvelope([0, 1], 0) as number[];
    expect(hard.slice(0, 128).every((v) => v === 0) && hard.slice(128).every((v) => v === 1)).toBe(true);
    const smooth = customEnvelope([0, 1], 2) as number[];
    expect(smooth[32]).toBeCloseTo(0.25 * 0.25 * (3 - 2 * 0.25), 3); // smoothstep a quarter of the way
    expect(customEnvelope([1, -1], 1)).toBe("envelope samples must not be negative");
  });

  it("reads waveNN on binaural tones and customNN on binaural and isochronic ones, and writes them back", () => {
    const r = readSbgVoices("-SE\nwave00: 0 5.5 10 8 10 7.2 4.7 2\ncustom01: e=1 0 1 1 0\nts: wave00:200+4/50 custom01:400@2/20 custom01:300+6/10\nNOW ts\nNOW+00:01 ts\n");
    expect(r.ok && r.warnings).toEqual([]);
    if (!r.ok) return;
    const [a, b, c] = r.session.voices as Voice[];
    expect(a).toMatchObject({ kind: "binaural", carrier: 200, beat: 4 });
    expect((a as { envelope: number[] }).envelope).toHaveLength(256);
    expect(b).toEqual({ kind: "isochronic", carrier: 400, pulse: 2, amp: 20, envelope: [0, 1, 1, 0] });
    expect(c).toEqual({ kind: "binaural", carrier: 300, beat: 6, amp: 10, envelope: [0, 1, 1, 0] });
    const again = readSbgVoices(toSbg(r.session).text);
    expect(again.ok && again.session.voices).toEqual(r.session.voices);
    // waveNN shapes binaural tones only; an undefined name plays without a shape.
    const w = readSbgVoices("-SE\nwave00: 0 1 0\nts: wave00:400@2/20 custom09:200+4/10\nNOW ts\n");
    expect(w.warnings.map((x) => x.message)).toEqual([
      "'wave00:400@2/20': wave00 shapes binaural tones only: played without it",
      "'custom09:200+4/10': custom09 is not defined above: played without it",
    ]);
  });

  it.skipIf(!existsSync(EXAMPLE))("the published customNN example reads without a warning", () => {
    const r = readSbgVoices(readFileSync(EXAMPLE, "utf8"));
    expect(r.ok && r.warnings).toEqual([]);
    expect(r.ok && (r.session.voices![0] as { envelope?: number[] }).envelope).toHaveLength(256);
  });
});

describe("envelopes in the engine", () => {
  it("a binaural pair under a half-on envelope sounds for half of each 250 ms beat cycle", () => {
    // custom: e=0 1 0 -> on for the first half of the beat cycle (125 ms at 4 Hz), off for the second.
    const env = customEnvelope([1, 0], 0) as number[];
    const out = play([{ kind: "binaural", carrier: 400, beat: 4, amp: 50, envelope: env }], 1, 0);
    const w = windows(out.left, 25); // ten windows a cycle: five on, five off
    const steady = rms(play([{ kind: "binaural", carrier: 400, beat: 4, amp: 50 }], 0.5).left);
    for (let cycle = 0; cycle < 4; cycle++) {
      const on = w.slice(cycle * 10 + 1, cycle * 10 + 4), off = w.slice(cycle * 10 + 6, cycle * 10 + 9);
      for (const v of on) expect(v / steady).toBeGreaterThan(0.95);
      for (const v of off) expect(v / steady).toBeLessThan(0.01);
    }
  });

  it("an isochronic tone follows its customNN at the pulse instead of the gate", () => {
    // A triangle 0 -> 1 -> 0 over each 500 ms cycle (2 Hz): the middle is full, the ends silent.
    const out = play([{ kind: "isochronic", carrier: 400, pulse: 2, amp: 40, envelope: [0, 1] }], 1, 0);
    const w = windows(out.left, 10);
    const steady = rms(play([{ kind: "tone", carrier: 400, amp: 40 }], 0.5).left);
    expect(w[24] / steady).toBeGreaterThan(0.95); // 245 ms: the top
    expect(w[12] / steady).toBeCloseTo(0.5, 1); // 125 ms: half way up
    expect(w[49] / steady).toBeLessThan(0.03); // 495 ms: back at the bottom
    expect(w[74] / steady).toBeGreaterThan(0.95); // the next cycle's top
  });
});
