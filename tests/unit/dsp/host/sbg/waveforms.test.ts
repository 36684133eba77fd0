// SBaGenX's waveforms for tones: `square:200+10/20`, `triangle:300@8/15`, `-w sawtooth` for every
// binaural and isochronic tone without a prefix, `sine:` to keep one a sine. Heard in the engine
// from its band-limited tables: a square's odd harmonics at 1/k, no even ones, no partial above
// the band; written back as prefixes.

import { describe, expect, it } from "vitest";
import type { Voice } from "../../../../../dsp/host/model/voices";
import { readSbgVoices, toSbg } from "../../../../../dsp/host/sbg/index";
import { FS, db, levelAt, magnitude } from "../../../dsp/assembly/helpers";
import { playVoices } from "../play-voices";

describe("waveforms of tones", () => {
  it("reads prefixes and -w, keeps sine: as sine, warns where a waveform does not apply, writes them back", () => {
    const r = readSbgVoices("-SE\n-w sawtooth\nts: square:200+10/20 300@8/15 sine:400+4/10 triangle:500/5 triangle:pink/10\nNOW ts\nNOW+00:01 ts\n");
    expect(r.warnings.map((w) => w.message)).toEqual(["'triangle:pink/10': triangle shapes tones only (a noise voice's motion plays as a sine)"]);
    if (!r.ok) throw new Error("not read");
    expect(r.session.voices).toEqual([
      { kind: "binaural", carrier: 200, beat: 10, amp: 20, waveform: "square" },
      { kind: "isochronic", carrier: 300, pulse: 8, amp: 15, waveform: "sawtooth" },
      { kind: "binaural", carrier: 400, beat: 4, amp: 10 },
      { kind: "tone", carrier: 500, amp: 5, waveform: "triangle" },
      { kind: "noise", colour: "pink", amp: 10 },
    ]);
    const again = readSbgVoices(toSbg(r.session).text);
    expect(again.ok && again.session.voices).toEqual(r.session.voices);
  });

  it("a square binaural tone has its odd harmonics at 1/k in each ear, no even ones, nothing above the band", () => {
    const out = playVoices([{ kind: "binaural", carrier: 1000, beat: 10, amp: 40, waveform: "square" } as Voice], 1, { from: 0.5 });
    const size = 32768;
    const mag = magnitude(out.left, size);
    const f0 = 1005; // left ear: carrier + beat/2
    const fund = levelAt(mag, f0, FS, size);
    // Within 1 dB (the bins' scalloping).
    expect(Math.abs(db(levelAt(mag, 3 * f0, FS, size) / fund) - db(1 / 3))).toBeLessThan(1);
    expect(Math.abs(db(levelAt(mag, 5 * f0, FS, size) / fund) - db(1 / 5))).toBeLessThan(1);
    expect(db(levelAt(mag, 2 * f0, FS, size) / fund)).toBeLessThan(-60);
    // The highest odd harmonic under 0.45 fs is the 21st (21.1 kHz); nothing folds back below it.
    expect(db(levelAt(mag, 23 * f0 - FS, FS, size) / fund)).toBeLessThan(-60);
    const right = magnitude(out.right, size);
    expect(db(levelAt(right, 995, FS, size) / fund)).toBeCloseTo(0, 0);
  });
});
