// The engine's voices (dsp/assembly/voices.ts, compiled by dsp/host/model/voice-track.ts), measured
// ear by ear on rendered audio: SBaGen's binaural convention (left = carrier + beat/2), several
// beats in one set, plain tones, the isochronic gate's duty, noise the same in both ears, spinning
// noise's moving interaural delay, a bell's decay, fades through silence linear to the middle, and
// slides that reach the interpolated carrier and beat at mid-slide. The compressor is off so levels
// compare linearly.

import { describe, expect, it } from "vitest";
import { defaultAudioState, type AudioState } from "../../../../dsp/host/schema/state";
import type { Voice, VoiceSlots } from "../../../../dsp/host/model/voices";
import { FS, engineWith, peakFrequency, renderFrames, rms, type Stereo } from "./helpers";

/** A state with every channel off and these voices (and steps). */
function voicesState(voices: VoiceSlots, steps: { at: number; ramp: "hold" | "linear"; voices: VoiceSlots }[] = []): AudioState {
  const s = defaultAudioState();
  s.channels = s.channels.map((c) => ({ ...c, enabled: false }));
  s.voices = voices;
  if (steps.length > 0) s.timeline = { steps };
  return s;
}

function render(state: AudioState, seconds: number): Stereo {
  const e = engineWith(state);
  e.setCompressor(false);
  expect(e.start({ delay: 0 })).toBe(true);
  return renderFrames(e, Math.round(seconds * FS));
}

const slice = (x: Float32Array, from: number, to: number) => x.subarray(Math.round(from * FS), Math.round(to * FS));

/** The strongest frequency between lo and hi Hz in a stretch of one ear (0.05 Hz bins). */
function peakIn(x: Float32Array, lo: number, hi: number): number {
  return peakFrequency(x, FS, 1 << 20, lo, hi);
}

const binaural = (carrier: number, beat: number, amp: number): Voice => ({ kind: "binaural", carrier, beat, amp });

describe("voices", () => {
  it("binaural 200+10/50 puts 205 Hz in the left ear and 195 Hz in the right, as SBaGen does", () => {
    const out = render(voicesState([binaural(200, 10, 50)]), 4);
    expect(peakIn(slice(out.left, 1, 4), 150, 250)).toBeCloseTo(205, 1);
    expect(peakIn(slice(out.right, 1, 4), 150, 250)).toBeCloseTo(195, 1);
    // '-' is the other way round.
    const minus = render(voicesState([binaural(200, -10, 50)]), 4);
    expect(peakIn(slice(minus.left, 1, 4), 150, 250)).toBeCloseTo(195, 1);
  });

  it("gives every pair of a multi-beat set its own beat", () => {
    const out = render(voicesState([binaural(100, 1.5, 20), binaural(200, 6, 30), binaural(400, 12, 10)]), 6);
    const l = slice(out.left, 1, 6), r = slice(out.right, 1, 6);
    expect(peakIn(l, 90, 110)).toBeCloseTo(100.75, 1);
    expect(peakIn(r, 90, 110)).toBeCloseTo(99.25, 1);
    expect(peakIn(l, 190, 210)).toBeCloseTo(203, 1);
    expect(peakIn(r, 190, 210)).toBeCloseTo(197, 1);
    expect(peakIn(l, 390, 420)).toBeCloseTo(406, 1);
    expect(peakIn(r, 380, 410)).toBeCloseTo(394, 1);
  });

  it("plays amplitudes linearly: a tone at 50 is 6 dB above one at 25, and both ears match", () => {
    const a = render(voicesState([{ kind: "tone", carrier: 300, amp: 50 }]), 2);
    const b = render(voicesState([{ kind: "tone", carrier: 300, amp: 25 }]), 2);
    const ratio = rms(slice(a.left, 0.5, 2)) / rms(slice(b.left, 0.5, 2));
    expect(20 * Math.log10(ratio)).toBeCloseTo(6.02, 1);
    expect(Array.from(slice(a.left, 0.5, 0.6))).toEqual(Array.from(slice(a.right, 0.5, 0.6)));
  });

  it("gates an isochronic tone at its pulse rate, sounding 40 % of each cycle", () => {
    const out = render(voicesState([{ kind: "isochronic", carrier: 1000, pulse: 4, amp: 50 }]), 3);
    const x = slice(out.left, 1, 3); // 8 whole pulse cycles
    // Envelope by 1 ms windows: the share of windows that are not silent.
    const win = FS / 1000;
    let on = 0, total = 0;
    const loud = rms(x) * 0.02;
    for (let i = 0; i + win <= x.length; i += win, total++) if (rms(x, i, i + win) > loud) on++;
    expect(on / total).toBeGreaterThan(0.36);
    expect(on / total).toBeLessThan(0.44);
    expect(peakIn(x, 900, 1100)).toBeCloseTo(1000, 0);
  });

  it("plays noise the same in both ears, 12 dB under a tone of the same amp (RMS)", () => {
    const n = render(voicesState([{ kind: "noise", colour: "pink", amp: 40 }]), 3);
    expect(Array.from(slice(n.left, 1, 1.01))).toEqual(Array.from(slice(n.right, 1, 1.01)));
    const t = render(voicesState([{ kind: "tone", carrier: 500, amp: 40 }]), 3);
    const diff = 20 * Math.log10(rms(slice(n.left, 1, 3)) / rms(slice(t.left, 1, 3)));
    expect(diff).toBeGreaterThan(-13.5);
    expect(diff).toBeLessThan(-10.5);
    for (const colour of ["white", "brown"] as const) {
      const c = render(voicesState([{ kind: "noise", colour, amp: 40 }]), 3);
      expect(20 * Math.log10(rms(slice(c.left, 1, 3)) / rms(slice(n.left, 1, 3)))).toBeCloseTo(0, 0);
    }
  });

  it("spins noise: the interaural delay swings by twice the width at the spin rate", () => {
    // 500 us at 48 kHz: 24 samples either way, so the ears differ by up to 48 samples.
    const out = render(voicesState([{ kind: "spin", colour: "white", width: 500, rate: 0.5, amp: 60 }]), 4);
    const lagAt = (t: number): number => {
      const from = Math.round(t * FS) - 1200, to = from + 2400;
      let best = 0, bestLag = 0;
      for (let lag = -60; lag <= 60; lag++) {
        let s = 0;
        for (let i = from; i < to; i++) s += out.left[i] * out.right[i + lag];
        if (s > best) { best = s; bestLag = lag; }
      }
      return bestLag;
    };
    // sin peaks at 0.5 s (left leads: the right ear hears the same noise 48 samples later), and is
    // at its trough at 1.5 s; at 1 s the ears agree.
    expect(lagAt(0.5)).toBeGreaterThanOrEqual(46);
    expect(lagAt(1.5)).toBeLessThanOrEqual(-46);
    expect(Math.abs(lagAt(1.0))).toBeLessThanOrEqual(3);
  });

  it("strikes a bell when it appears and lets it decay by 11/12 every 50 ms", () => {
    const silent: VoiceSlots = [{ kind: "tone", carrier: 0, amp: 0 }];
    const out = render(voicesState(silent, [{ at: 0.5, ramp: "hold", voices: [{ kind: "bell", carrier: 800, amp: 40 }] }]), 3);
    expect(rms(slice(out.left, 0, 0.49))).toBe(0);
    const a = rms(slice(out.left, 0.55, 0.65)), b = rms(slice(out.left, 1.55, 1.65));
    expect(20 * Math.log10(b / a)).toBeCloseTo(20 * Math.log10(Math.pow(11 / 12, 20)), 0);
    expect(peakIn(slice(out.left, 0.5, 1.5), 700, 900)).toBeCloseTo(800, 0);
  });

  it("fades through silence linearly: half the level a quarter into the change, nothing at its middle", () => {
    // A binaural voice becomes pink noise over a linear ramp from 1 s to 9 s: it fades to 0 at 5 s.
    const out = render(
      voicesState([binaural(300, 4, 60)], [
        { at: 1, ramp: "hold", voices: [binaural(300, 4, 60)] },
        { at: 9, ramp: "linear", voices: [{ kind: "noise", colour: "pink", amp: 60 }] },
      ]),
      10,
    );
    const level = (t: number) => rms(slice(out.left, t - 0.05, t + 0.05));
    expect(20 * Math.log10(level(3) / level(0.7))).toBeCloseTo(-6.02, 0);
    expect(level(5)).toBeLessThan(level(0.7) * 0.02);
    expect(level(9.5)).toBeGreaterThan(level(0.7) * 0.1);
  });

  it("slides a plain tone into a binaural beat (a tone is a beat of 0, as SBaGen plays it): no dip, the ears part at mid-slide", () => {
    const out = render(
      voicesState([{ kind: "tone", carrier: 300, amp: 50 }], [
        { at: 1, ramp: "hold", voices: [{ kind: "tone", carrier: 300, amp: 50 }] },
        { at: 21, ramp: "linear", voices: [binaural(300, 20, 50)] },
      ]),
      12,
    );
    const level = (t: number) => rms(slice(out.left, t - 0.05, t + 0.05));
    for (const t of [3, 6, 9]) expect(20 * Math.log10(level(t) / level(0.7))).toBeCloseTo(0, 0);
    // At 11 s, half way: a beat of 10, left 305 Hz and right 295 Hz.
    expect(peakIn(slice(out.left, 10.5, 11.5), 280, 320)).toBeCloseTo(305, 0);
    expect(peakIn(slice(out.right, 10.5, 11.5), 280, 320)).toBeCloseTo(295, 0);
  });

  it("slides a voice to the interpolated carrier and beat at mid-slide", () => {
    const out = render(
      voicesState([binaural(200, 4, 50)], [
        { at: 1, ramp: "hold", voices: [binaural(200, 4, 50)] },
        { at: 21, ramp: "linear", voices: [binaural(300, 10, 50)] },
      ]),
      12,
    );
    // At 11 s: carrier 250, beat 7: left 253.5, right 246.5 (measured over 0.5 s, which moves 2.5 Hz).
    expect(peakIn(slice(out.left, 10.75, 11.25), 230, 270)).toBeCloseTo(253.5, 0);
    expect(peakIn(slice(out.right, 10.75, 11.25), 230, 270)).toBeCloseTo(246.5, 0);
  });

  it("keeps playing voices in phase when the voices are uploaded again while playing (an edit elsewhere)", () => {
    const state = voicesState([{ kind: "tone", carrier: 300, amp: 50 }, { kind: "tone", carrier: 700, amp: 0 }]);
    const e = engineWith(state);
    e.setCompressor(false);
    e.start({ delay: 0 });
    const before = renderFrames(e, FS / 2 + 40); // a quarter cycle past a whole number of cycles
    e.apply({ ...state, voices: [{ kind: "tone", carrier: 300, amp: 50 }, { kind: "tone", carrier: 700, amp: 0.001 }] });
    const after = renderFrames(e, FS / 10);
    // The 300 Hz tone goes on where it was: the step across the upload is a sine's own step.
    const steady = Math.max(...Array.from({ length: 1000 }, (_, i) => Math.abs(before.left[i + 1000] - before.left[i + 999])));
    // (The upload reaches the sound at the next engine block, inside `after`.)
    const joined = [before.left[before.left.length - 1], ...after.left];
    const worst = Math.max(...joined.slice(1).map((v, i) => Math.abs(v - joined[i])));
    expect(worst).toBeLessThanOrEqual(steady * 1.05);
  });

  it("glides an edited level over at most a block instead of jumping (an amp typed while playing)", () => {
    const state = voicesState([{ kind: "tone", carrier: 300, amp: 50 }]);
    const e = engineWith(state);
    e.setCompressor(false);
    e.start({ delay: 0 });
    const before = renderFrames(e, FS / 2 + 40);
    e.apply({ ...state, voices: [{ kind: "tone", carrier: 300, amp: 5 }] });
    const after = renderFrames(e, FS / 10);
    const steady = Math.max(...Array.from({ length: 1000 }, (_, i) => Math.abs(before.left[i + 1000] - before.left[i + 999])));
    const joined = [before.left[before.left.length - 1], ...after.left];
    const worst = Math.max(...joined.slice(1).map((v, i) => Math.abs(v - joined[i])));
    expect(worst).toBeLessThanOrEqual(steady * 1.05);
    // ...and the new level is reached: a tenth of the old one.
    expect(20 * Math.log10(rms(after.left, FS / 20, FS / 10) / rms(before.left, 0, FS / 4))).toBeCloseTo(-20, 0);
  });

  it.each([
    ["changed to another kind", [{ kind: "isochronic", carrier: 2000, pulse: 4, amp: 50 }]],
    ["removed", [] as Voice[]],
  ])("fades a voice out over a block when an edit while playing takes it away (%s), no click", (_, next) => {
    const state = voicesState([binaural(300, 4, 50)]);
    const e = engineWith(state);
    e.setCompressor(false);
    e.start({ delay: 0 });
    const before = renderFrames(e, FS / 2 + 40);
    e.apply({ ...state, voices: next as VoiceSlots });
    const after = renderFrames(e, FS / 10);
    const steady = Math.max(...Array.from({ length: 1000 }, (_, i) => Math.abs(before.left[i + 1000] - before.left[i + 999])));
    const joined = [before.left[before.left.length - 1], ...after.left.subarray(0, 600)];
    const worst = Math.max(...joined.slice(1).map((v, i) => Math.abs(v - joined[i])));
    expect(worst).toBeLessThanOrEqual(steady * 1.05);
    // The old voice is gone after the block: nothing at 300 Hz from 10 ms on.
    expect(rms(after.left.subarray(FS / 100), 0) < rms(before.left, 0, FS / 4) * 0.5 || next.length > 0).toBe(true);
  });

  it("does not start with no voice sounding, and starts with one", () => {
    const e = engineWith(voicesState([{ kind: "tone", carrier: 300, amp: 0 }]));
    expect(e.start({ delay: 0 })).toBe(false);
  });
});
