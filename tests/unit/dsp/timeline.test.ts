// The session timeline as the engine plays it: sample-accurate ramps (the measured instantaneous
// frequency follows the schedule), jumps without clicks, levels on schedule, effect automation,
// the same output whatever the host's block size, and edits while playing.

import { describe, expect, it } from "vitest";
import { FS, engineWith, maxStep, peakFrequency, play, renderFrames, rms, singleTone } from "./helpers";
import type { AudioState } from "../../../dsp/host/state";
import type { Timeline } from "../../../dsp/host/timeline";

function withTimeline(state: AudioState, timeline: Timeline): AudioState {
  return { ...state, timeline };
}

/** Times (in frames, fractional) of the upward zero crossings of x. */
function upCrossings(x: Float32Array, from = 0, to = x.length): number[] {
  const out: number[] = [];
  for (let i = Math.max(1, from); i < to; i++) {
    const a = x[i - 1];
    const b = x[i];
    if (a < 0 && b >= 0) out.push(i - 1 + a / (a - b));
  }
  return out;
}

/** Instantaneous frequency per cycle: [time in s of the cycle's middle, Hz]. For a linear chirp
 *  1 / period is exactly the frequency at the middle of the period. */
function cycleFrequencies(x: Float32Array, from: number, to: number): [number, number][] {
  const c = upCrossings(x, from, to);
  const out: [number, number][] = [];
  for (let i = 1; i < c.length; i++) out.push([(c[i] + c[i - 1]) / 2 / FS, FS / (c[i] - c[i - 1])]);
  return out;
}

const ramp = (to: number, at: number, kind: "linear" | "ease" | "exponential" | "hold"): Timeline => ({
  steps: [{ at, ramp: kind, channels: [{ id: 1, frequency: to }] }],
});

describe("timeline playback", () => {
  it("a linear ramp's measured instantaneous frequency follows the schedule within 0.1 Hz", () => {
    const state = withTimeline(singleTone(200), ramp(800, 2, "linear"));
    const { left } = play(state, 2.5);
    let worst = 0;
    for (const [t, f] of cycleFrequencies(left, Math.round(0.05 * FS), Math.round(2.45 * FS))) {
      const expected = t >= 2 ? 800 : 200 + 300 * t;
      worst = Math.max(worst, Math.abs(f - expected));
    }
    expect(worst).toBeLessThan(0.1);
  });

  it("an exponential sweep moves at a constant rate in octaves, and an eased one follows its cosine", () => {
    const exp = play(withTimeline(singleTone(100), ramp(1600, 4, "exponential")), 4).left;
    let worst = 0;
    for (const [t, f] of cycleFrequencies(exp, Math.round(0.05 * FS), Math.round(3.95 * FS))) {
      worst = Math.max(worst, Math.abs(f - 100 * Math.pow(16, t / 4)));
    }
    expect(worst).toBeLessThan(0.1);
    const ease = play(withTimeline(singleTone(300), ramp(600, 2, "ease")), 2).left;
    worst = 0;
    for (const [t, f] of cycleFrequencies(ease, Math.round(0.05 * FS), Math.round(1.95 * FS))) {
      worst = Math.max(worst, Math.abs(f - (300 + 300 * (0.5 - 0.5 * Math.cos((Math.PI * t) / 2)))));
    }
    expect(worst).toBeLessThan(0.1);
  });

  it("a ramp starts at the previous step and ends exactly at its own", () => {
    // 0:00 440 Hz, held; 1 s: 440 (ramp starts here); 2 s: 880 reached.
    const timeline: Timeline = {
      steps: [
        { at: 1, ramp: "hold", channels: [{ id: 1, frequency: 440 }] },
        { at: 2, ramp: "linear", channels: [{ id: 1, frequency: 880 }] },
      ],
    };
    const { left } = play(withTimeline(singleTone(440), timeline), 3);
    const cycles = cycleFrequencies(left, Math.round(0.05 * FS), left.length - 10);
    for (const [t, f] of cycles) {
      const expected = t <= 1 ? 440 : t >= 2 ? 880 : 440 + 440 * (t - 1);
      expect(Math.abs(f - expected)).toBeLessThan(0.1);
    }
  });

  it("a jump changes pitch at the step's time without a click", () => {
    const { left } = play(withTimeline(singleTone(300), ramp(500, 1, "hold")), 2);
    expect(peakFrequency(left.subarray(Math.round(0.2 * FS), Math.round(0.95 * FS)))).toBeCloseTo(300, 0);
    expect(peakFrequency(left.subarray(Math.round(1.05 * FS), Math.round(1.9 * FS)))).toBeCloseTo(500, 0);
    // The largest sample-to-sample step around the jump is no larger than in the steady tone after it.
    const around = maxStep(left, Math.round(0.99 * FS), Math.round(1.02 * FS));
    const steady = maxStep(left, Math.round(1.5 * FS), Math.round(1.6 * FS));
    expect(around).toBeLessThanOrEqual(steady * 1.001);
  });

  it("levels follow the schedule: a channel fades out over a ramp and is silent after it", () => {
    const timeline: Timeline = { steps: [{ at: 2, ramp: "linear", channels: [{ id: 1, volume: 0 }] }] };
    const engine = engineWith(withTimeline(singleTone(440), timeline));
    engine.setCompressor(false); // measure the schedule, not the master compressor
    engine.start({ delay: 0 });
    const { left } = renderFrames(engine, 3 * FS);
    const level = (t: number) => rms(left, Math.round((t - 0.05) * FS), Math.round((t + 0.05) * FS));
    // The ramp runs from 0:00 (the previous step) to 2 s: the gain is 1 - t / 2.
    const ref = level(0.3) / 0.85;
    for (const t of [0.6, 1, 1.5, 1.8]) expect(level(t) / ref).toBeCloseTo(1 - t / 2, 2);
    expect(rms(left, Math.round(2.01 * FS), Math.round(3 * FS))).toBe(0);
  });

  it("a channel switched on at a step fades in at its own pitch, and start() plays a session that is silent at 0:00", () => {
    const state = singleTone(440);
    state.channels[0] = { ...state.channels[0], enabled: false, frequency: 0 };
    const timeline: Timeline = { steps: [{ at: 0.5, ramp: "hold", channels: [{ id: 1, enabled: true, frequency: 660 }] }] };
    const engine = engineWith(withTimeline(state, timeline));
    expect(engine.start({ delay: 0 })).toBe(true);
    const { left } = renderFrames(engine, FS);
    expect(rms(left, 0, Math.round(0.49 * FS))).toBe(0);
    expect(peakFrequency(left.subarray(Math.round(0.6 * FS)))).toBeCloseTo(660, 0);
  });

  it("effects follow the timeline: the binaural beat ramps from 10 Hz to 4 Hz", () => {
    const state = singleTone(200);
    state.effects.binaural = { ...state.effects.binaural, enabled: true, value: 10 };
    const timeline: Timeline = { steps: [{ at: 4, ramp: "linear", effects: { binaural: { value: 4 } } }] };
    const { left, right } = play(withTimeline(state, timeline), 5);
    const beatAt = (from: number, to: number) => {
      const l = peakFrequency(left.subarray(Math.round(from * FS), Math.round(to * FS)));
      const r = peakFrequency(right.subarray(Math.round(from * FS), Math.round(to * FS)));
      return r - l;
    };
    expect(beatAt(0.1, 0.6)).toBeGreaterThan(9);
    expect(beatAt(4.1, 5)).toBeCloseTo(4, 0);
  });

  it("renders the same samples whatever the host's block size (live 128 frames, export 16384)", () => {
    const timeline: Timeline = {
      steps: [
        { at: 0.3, ramp: "linear", channels: [{ id: 1, frequency: 900 }, { id: 2, volume: 0.1 }] },
        { at: 0.61, ramp: "hold", channels: [{ id: 3, waveform: "sawtooth" }], effects: { chorus: { enabled: true, value: 60 } } },
      ],
    };
    const state = withTimeline({ ...singleTone(300), channels: singleTone(300).channels.map((c) => ({ ...c, enabled: true, frequency: c.frequency || 500 })) }, timeline);
    const a = engineWith(state);
    a.start({ delay: 0 });
    const live = renderFrames(a, FS, 128);
    const b = engineWith(state);
    b.start({ delay: 0 });
    const exp = renderFrames(b, FS, 16384);
    expect(Buffer.from(live.left.buffer).equals(Buffer.from(exp.left.buffer))).toBe(true);
    expect(Buffer.from(live.right.buffer).equals(Buffer.from(exp.right.buffer))).toBe(true);
  });

  it("editing the timeline while it plays blends to the new curve without a click, and removing it returns to the state", () => {
    const state = singleTone(400);
    const engine = engineWith(withTimeline(state, ramp(400, 10, "hold")));
    engine.start({ delay: 0 });
    const before = renderFrames(engine, FS / 2).left;
    engine.apply(withTimeline(state, { steps: [{ at: 0, ramp: "hold", channels: [{ id: 1, frequency: 600, volume: 1 }] }] }));
    const after = renderFrames(engine, FS / 2).left;
    const joined = new Float32Array(before.length + after.length);
    joined.set(before);
    joined.set(after, before.length);
    const edge = maxStep(joined, before.length - 64, before.length + 1024);
    const steadyNew = maxStep(joined, before.length + 4800, joined.length);
    expect(edge).toBeLessThanOrEqual(steadyNew * 1.01);
    expect(peakFrequency(after.subarray(4800))).toBeCloseTo(600, 0);
    engine.apply(state);
    const back = renderFrames(engine, FS / 2).left;
    expect(peakFrequency(back.subarray(4800))).toBeCloseTo(400, 0);
  });
});
