// Voice recordings in the engine (dsp/assembly/recordings.ts, placed by dsp/host/model/recordings.ts):
// a clip placed at a timeline step's time, repeated every N minutes, looped under the whole session,
// trimmed, and its level in dB measured on the rendered audio. Every channel is off, so what sounds
// is the recording alone; the recordings are mixed after the compressor, which is left on (as in
// the studio) to show it does not change their level.

import { describe, expect, it } from "vitest";
import { defaultAudioState, type AudioState } from "../../../../dsp/host/schema/state";
import { recordingsFrom, type RecordingClip, type RecordingPlacement } from "../../../../dsp/host/model/recordings";
import { FS, engineWith, peakFrequency, renderFrames, rms, type Stereo } from "./helpers";

/** A clip of `seconds` of a sine at `freq` Hz and `peak` (0..1 of full scale). */
function toneClip(id: string, seconds: number, freq: number, peak: number): RecordingClip {
  const frames = Math.round(seconds * FS);
  const pcm = new Int16Array(frames);
  for (let i = 0; i < frames; i++) pcm[i] = Math.round(Math.sin((2 * Math.PI * freq * i) / FS) * peak * 32767);
  return { id, rate: FS, frames, pcm };
}

function placement(p: Partial<RecordingPlacement>): RecordingPlacement {
  return { id: "a", name: "take 1", trimStart: 0, trimEnd: 0, gainDb: 0, at: 0, every: 0, loop: false, ...p };
}

function silentState(recordings: RecordingPlacement[]): AudioState {
  const s = defaultAudioState();
  s.channels = s.channels.map((c) => ({ ...c, enabled: false }));
  s.recordings = recordings;
  return s;
}

function render(state: AudioState, clips: RecordingClip[], seconds: number): Stereo {
  const e = engineWith(state);
  e.setRecordingClips(clips);
  e.apply(state);
  expect(e.start({ delay: 0 })).toBe(true);
  return renderFrames(e, Math.round(seconds * FS));
}

const at = (x: Float32Array, from: number, to: number) => x.subarray(Math.round(from * FS), Math.round(to * FS));
const dbOf = (v: number) => 20 * Math.log10(v);
/** Where the sound first rises above -40 dBFS, in seconds. */
function onset(x: Float32Array, from = 0): number {
  for (let i = Math.round(from * FS); i < x.length; i++) if (Math.abs(x[i]) > 0.01) return i / FS;
  return Infinity;
}

describe("voice recordings in the engine", () => {
  it("starts on a recording alone and plays it at the time of the timeline step it names", () => {
    const s = silentState([placement({ step: 1, at: 99 })]);
    s.timeline = { steps: [{ at: 0, ramp: "hold" }, { at: 2.5, ramp: "hold" }] };
    const out = render(s, [toneClip("a", 1, 440, 0.5)], 5);
    expect(onset(out.left)).toBeCloseTo(2.5, 2);
    expect(rms(at(out.left, 0, 2.4))).toBe(0);
    expect(peakFrequency(at(out.left, 2.6, 3.4), FS)).toBeCloseTo(440, 0);
    // Played once: silent after its second.
    expect(rms(at(out.left, 3.6, 5))).toBe(0);
    // The same in both ears.
    expect(Array.from(at(out.right, 2.5, 3.5))).toEqual(Array.from(at(out.left, 2.5, 3.5)));
  });

  it("plays at `at` seconds when the session has no such step", () => {
    const out = render(silentState([placement({ step: 4, at: 1.25 })]), [toneClip("a", 0.5, 440, 0.5)], 3);
    expect(onset(out.left)).toBeCloseTo(1.25, 2);
  });

  it("repeats every N minutes", () => {
    // Every 0.05 min = 3 s: starts at 1, 4, 7 s.
    const out = render(silentState([placement({ at: 1, every: 0.05 })]), [toneClip("a", 1, 300, 0.5)], 9);
    expect(onset(out.left)).toBeCloseTo(1, 2);
    expect(onset(out.left, 2.1)).toBeCloseTo(4, 2);
    expect(onset(out.left, 5.1)).toBeCloseTo(7, 2);
    expect(rms(at(out.left, 2.1, 3.9))).toBe(0);
  });

  it("repeats every 2 minutes over 5 minutes: at 0:30, 2:30 and 4:30, to the frame", () => {
    const s = silentState([placement({ at: 30, every: 2 })]);
    const e = engineWith(s);
    e.setRecordingClips([toneClip("a", 1, 300, 0.5)]);
    e.apply(s);
    expect(e.start({ delay: 0 })).toBe(true);
    // Rendered in blocks without keeping them: the first sounding frame of each minute's stretch.
    const onsets: number[] = [];
    let sounding = false;
    for (let pos = 0; pos < 300 * FS; pos += 4800) {
      const { left } = e.render(4800);
      for (let i = 0; i < left.length; i++) {
        const on = Math.abs(left[i]) > 0;
        if (on && !sounding) onsets.push(pos + i);
        if (on) sounding = true;
      }
      if (sounding && left.every((v) => v === 0)) sounding = false;
    }
    expect(onsets.map((f) => Math.floor(f / FS))).toEqual([30, 150, 270]);
    // Each starts within the first frames of its second (the 2.5 ms edge fade starts at 0).
    for (const f of onsets) expect(f % FS).toBeLessThan(3);
  });

  it("loops back to back under the whole session", () => {
    const out = render(silentState([placement({ loop: true, every: 5 })]), [toneClip("a", 0.7, 500, 0.5)], 6);
    // Never silent for long: each 100 ms window holds the tone.
    for (let t = 0.05; t < 5.9; t += 0.1) expect(rms(at(out.left, t, t + 0.1))).toBeGreaterThan(0.2);
  });

  it("plays the trimmed part only", () => {
    // First half at 300 Hz, second half at 900 Hz: trimmed to the second half.
    const a = toneClip("a", 1, 300, 0.5), b = toneClip("b", 1, 900, 0.5);
    const pcm = new Int16Array(a.frames + b.frames);
    pcm.set(a.pcm);
    pcm.set(b.pcm, a.frames);
    const clip: RecordingClip = { id: "a", rate: FS, frames: pcm.length, pcm };
    const out = render(silentState([placement({ trimStart: 1, trimEnd: 1.5, at: 0.5 })]), [clip], 3);
    expect(onset(out.left)).toBeCloseTo(0.5, 2);
    expect(peakFrequency(at(out.left, 0.55, 0.95), FS)).toBeCloseTo(900, 0);
    expect(rms(at(out.left, 1.01, 3))).toBe(0);
  });

  it("sets the level in dB on the recording's own full scale, with the compressor on", () => {
    const clip = toneClip("a", 2, 1000, 0.5); // -6.02 dBFS peak, RMS 0.5/sqrt(2)
    const rmsAt = (gainDb: number) => rms(at(render(silentState([placement({ gainDb })]), [clip], 2).left, 0.5, 1.5));
    const unity = rmsAt(0);
    expect(dbOf(unity / (0.5 / Math.SQRT2))).toBeCloseTo(0, 1);
    expect(dbOf(rmsAt(-6) / unity)).toBeCloseTo(-6, 1);
    expect(dbOf(rmsAt(-20) / unity)).toBeCloseTo(-20, 1);
    expect(dbOf(rmsAt(3) / unity)).toBeCloseTo(3, 1);
  });

  it("moves to a new level over one block while playing (no jump), and keeps its place", () => {
    const clip = toneClip("a", 4, 1000, 0.5);
    const s = silentState([placement({ gainDb: 0 })]);
    const e = engineWith(s);
    e.setRecordingClips([clip]);
    e.apply(s);
    e.start({ delay: 0 });
    const first = renderFrames(e, FS);
    e.apply({ ...s, recordings: [placement({ gainDb: -20 })] });
    const next = renderFrames(e, FS);
    // Continuous: the sample after the change is where the tone was going, at no more than the old level.
    const lastL = first.left[FS - 1], nextL = next.left[0];
    expect(Math.abs(nextL - lastL)).toBeLessThan(0.1);
    // After the block the level is -20 dB, on the same clip position (the tone did not restart).
    expect(dbOf(rms(at(next.left, 0.1, 0.9)) / rms(at(first.left, 0.1, 0.9)))).toBeCloseTo(-20, 1);
    const expected = Math.sin((2 * Math.PI * 1000 * (FS + 4800)) / FS) * 0.5 * 0.1;
    expect(next.left[4800]).toBeCloseTo(expected, 3);
  });

  it("mixes beside the channels and keeps them as they were", () => {
    const tones = defaultAudioState();
    const base = render(tones, [], 2);
    const withRec = render({ ...tones, recordings: [placement({ at: 1.2 })] }, [toneClip("a", 0.5, 3000, 0.3)], 2);
    expect(Array.from(at(withRec.left, 0, 1.1))).toEqual(Array.from(at(base.left, 0, 1.1)));
    expect(peakFrequency(at(withRec.left, 1.25, 1.65), FS, 1 << 16, 2000, 4000)).toBeCloseTo(3000, 0);
  });

  it("plays from a seek as the whole session would: an occurrence under way goes on mid-clip", () => {
    const clip = toneClip("a", 2, 440, 0.5);
    const s = silentState([placement({ step: 1, at: 0 })]);
    s.timeline = { steps: [{ at: 0, ramp: "hold" }, { at: 1, ramp: "hold" }] };
    const whole = render(s, [clip], 4);
    // From 2 s on: the take started at 1 s, so it is 1 s in, and it stops 1 s later.
    const seeked = render({ ...s, recordings: recordingsFrom(s.recordings, s.timeline, 2) }, [clip], 2);
    expect(Array.from(at(seeked.left, 0.01, 0.9))).toEqual(Array.from(at(whole.left, 2.01, 2.9)));
    expect(rms(at(seeked.left, 1.01, 2))).toBe(0);
  });

  it("places nothing when the audio is not loaded, and nothing starts on that alone", () => {
    const s = silentState([placement({ id: "missing" })]);
    const e = engineWith(s);
    e.setRecordingClips([toneClip("a", 1, 440, 0.5)]);
    e.apply(s);
    expect(e.start({ delay: 0 })).toBe(false);
  });

  it("picks up clips given after the state", () => {
    const s = silentState([placement({ at: 0.2 })]);
    const e = engineWith(s);
    e.apply(s);
    e.setRecordingClips([toneClip("a", 1, 440, 0.5)]);
    expect(e.start({ delay: 0 })).toBe(true);
    const out = renderFrames(e, FS);
    expect(onset(out.left)).toBeCloseTo(0.2, 2);
  });
});
