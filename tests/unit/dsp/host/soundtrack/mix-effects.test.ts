// SBaGenX's soundtrack effects as the engine plays them, measured on a soundtrack of one steady
// tone (or noise, for the spin): mixpulse gates it at its rate down to 1 - amp, mixam swings it
// between 1 and its floor along a raised cosine, mixbeat shifts the left ear up and the right
// down by beat/2, mixspin moves it between the ears; an effect at amp 0 leaves the mix as it is.
// And the reader: the published mixam example and the words of each effect.

import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import type { SoundtrackAudio } from "../../../../../dsp/host/model/soundtrack";
import type { Voice } from "../../../../../dsp/host/model/voices";
import { readSbgVoices } from "../../../../../dsp/host/sbg/index";
import { toSbg } from "../../../../../dsp/host/sbg/index";
import { FS, peakFrequency, rms } from "../../../dsp/assembly/helpers";
import { interauralLag, playVoices } from "../play-voices";

const EXAMPLE = fileURLToPath(new URL("../../../../../../shared/reference/sbagen/examples/SBaGenX__X_mixam-delta-river.sbg", import.meta.url));

function track(sample: (i: number) => [number, number], seconds = 4): SoundtrackAudio {
  const frames = seconds * FS;
  const pcm = new Int16Array(frames * 2);
  for (let i = 0; i < frames; i++) {
    const [l, r] = sample(i);
    pcm[2 * i] = Math.round(l * 32767);
    pcm[2 * i + 1] = Math.round(r * 32767);
  }
  return { name: "t.wav", rate: FS, frames, pcm, loopStart: 0, loopEnd: frames, loopFade: FS / 2 };
}

const sine = (hz: number) => track((i) => { const v = 0.5 * Math.sin((2 * Math.PI * hz * i) / FS); return [v, v]; });

const play = (voices: Voice[], soundtrack: SoundtrackAudio, seconds: number, from = 0) => playVoices(voices, seconds, { from, soundtrack });

/** RMS in 5 ms windows. */
function envelope(x: Float32Array): number[] {
  const w = FS / 200;
  const out: number[] = [];
  for (let i = 0; i + w <= x.length; i += w) out.push(rms(x, i, i + w));
  return out;
}

const MIX: Voice = { kind: "mix", amp: 100 };

describe("soundtrack effects in the engine", () => {
  it("an effect at amp 0 leaves the mix as it is", () => {
    const plain = play([MIX], sine(1000), 0.5, 0.5);
    const off = play([MIX, { kind: "mixpulse", pulse: 10, amp: 0 }, { kind: "mixbeat", beat: 6, amp: 0 }], sine(1000), 0.5, 0.5);
    expect(Math.max(...plain.left.map((v, i) => Math.abs(v - off.left[i])))).toBeLessThan(1e-7);
  });

  it("mixpulse:10/100 gates the mix ten times a second; at 50 it dips to half", () => {
    const full = envelope(play([MIX, { kind: "mixpulse", pulse: 10, amp: 100 }], sine(1000), 1, 0.5).left);
    const steady = rms(play([MIX], sine(1000), 0.5, 0.5).left);
    expect(Math.max(...full) / steady).toBeGreaterThan(0.95);
    expect(Math.min(...full) / steady).toBeLessThan(0.02);
    // Ten gates a second: count the rises through half level.
    let rises = 0;
    for (let i = 1; i < full.length; i++) if (full[i - 1] < steady / 2 && full[i] >= steady / 2) rises++;
    expect(rises).toBe(10);
    const half = envelope(play([MIX, { kind: "mixpulse", pulse: 10, amp: 50 }], sine(1000), 1, 0.5).left);
    expect(Math.min(...half) / steady).toBeCloseTo(0.5, 1);
  });

  it("mixam:2 with f=0.3 swings the mix between its floor (30 %) and full along a raised cosine starting at the floor", () => {
    const am: Voice = { kind: "mixam", rate: 2, amp: 70, shape: "cos", start: 0, duty: 0.5, attack: 0.5, release: 0.5, edge: 3 };
    const env = envelope(play([MIX, am], sine(1000), 1).left);
    const steady = rms(play([MIX], sine(1000), 0.5, 0.5).left);
    expect(env[1] / steady).toBeCloseTo(0.3, 1); // the floor at the start (after the 5 ms start fade)
    expect(env[50] / steady).toBeCloseTo(1, 1); // a quarter second: the top of the first cycle
    expect(env[100] / steady).toBeCloseTo(0.3, 1); // half a second: the floor again
    expect(Math.min(...env.slice(1)) / steady).toBeCloseTo(0.3, 1);
  });

  it("mixbeat:6/100 puts the mix 3 Hz up in the left ear and 3 Hz down in the right", () => {
    const out = play([MIX, { kind: "mixbeat", beat: 6, amp: 100 }], sine(1000), 1.5, 0.5);
    expect(peakFrequency(out.left, FS, 1 << 17, 900, 1100)).toBeCloseTo(1003, 0);
    expect(peakFrequency(out.right, FS, 1 << 17, 900, 1100)).toBeCloseTo(997, 0);
    // The shifted tone keeps the mix's level (within 0.5 dB).
    expect(20 * Math.log10(rms(out.left) / rms(play([MIX], sine(1000), 1, 0.5).left))).toBeCloseTo(0, 0);
  });

  it("mixspin:500+1/100 moves the mix between the ears: the right ear leads, then the left, 500 us each way", () => {
    // The same white noise in both ears.
    let seed = 1;
    const noise = track(() => { seed = (seed * 1103515245 + 12345) & 0x7fffffff; const v = (seed / 0x7fffffff - 0.5) * 0.8; return [v, v]; });
    const out = play([MIX, { kind: "mixspin", width: 500, rate: 1, amp: 100 }], noise, 1);
    const lag = (at: number) => interauralLag(out, at);
    // sin(2 pi t) is 1 at 0.25 s: the left ear reads 24 frames (500 us) earlier than the centre, the
    // right 24 later, so the right ear is 48 frames behind; at 0.75 s the other way round.
    expect(lag(0.25 * FS - 1000)).toBeCloseTo(48, -1);
    expect(lag(0.75 * FS - 1000)).toBeCloseTo(-48, -1);
  });
});

describe("soundtrack effects in .sbg files", () => {
  it("reads each effect's words and writes them back", () => {
    const r = readSbgVoices("-SE\n-m r.ogg\nts: mix/80 mixpulse:8/50 mixspin:400+6/40 mixbeat:6/45 mixam:1.5:m=pulse:d=0.4:a=0.2:r=0.3:e=2:f=0.25\nNOW ts\nNOW+00:01 ts\n");
    expect(r.ok && r.warnings).toEqual([]);
    if (!r.ok) return;
    expect(r.session.voices).toEqual([
      { kind: "mix", amp: 80 },
      { kind: "mixpulse", pulse: 8, amp: 50 },
      { kind: "mixspin", width: 400, rate: 6, amp: 40 },
      { kind: "mixbeat", beat: 6, amp: 45 },
      { kind: "mixam", rate: 1.5, amp: 75, shape: "pulse", start: 0, duty: 0.4, attack: 0.2, release: 0.3, edge: 2 },
    ]);
    const again = readSbgVoices(toSbg(r.session).text);
    expect(again.ok && again.session.voices).toEqual(r.session.voices);
  });

  it("-H sets mixam's defaults; d, a, r or e alone mean the pulse shape (as SBaGenX)", () => {
    const r = readSbgVoices("-SE\n-H d=0.3\nts: mix/80 mixam:2\nNOW ts\nNOW+00:01 ts\n");
    expect(r.ok && r.session.voices![1]).toMatchObject({ kind: "mixam", shape: "pulse", duty: 0.3, amp: 55 });
  });

  it.skipIf(!existsSync(EXAMPLE))("the published mixam example: a raised cosine at 2.2 Hz down to 30 %, sliding to 1.2 Hz down to 20 %", () => {
    const r = readSbgVoices(readFileSync(EXAMPLE, "utf8"));
    expect(r.ok && r.warnings).toEqual([]);
    if (!r.ok) return;
    expect(r.session.soundtrack).toEqual({ name: "river1.ogg" });
    const voices = [r.session.voices, ...(r.session.timeline?.steps.map((s) => s.voices) ?? [])].flat().filter((v) => v?.kind === "mixam");
    expect(voices).toContainEqual({ kind: "mixam", rate: 2.2, amp: 70, shape: "cos", start: 0, duty: 0.5, attack: 0.5, release: 0.5, edge: 3 });
    expect(voices).toContainEqual({ kind: "mixam", rate: 1.2, amp: 80, shape: "cos", start: 0, duty: 0.5, attack: 0.5, release: 0.5, edge: 3 });
  });
});
