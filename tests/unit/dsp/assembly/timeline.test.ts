// The session timeline as the engine plays it: sample-accurate ramps (the measured instantaneous
// frequency follows the schedule), jumps without clicks, levels on schedule, effect automation,
// the same output whatever the host's block size, edits while playing, and (a property over
// generated schedules) every ramp monotone between its steps and on the step's value after it.

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { FS, engineWith, maxStep, peakFrequency, play, renderFrames, rms, singleTone } from "./helpers";
import { defaultAudioState, type AudioState } from "../../../../dsp/host/schema/state";
import { compileTimeline, resolveTimeline, segmentValueAt, type Timeline, type TimelineStep } from "../../../../dsp/host/schema/timeline";

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
    engine.apply(withTimeline(state, { steps: [{ at: 0, ramp: "hold", channels: [{ id: 1, frequency: 600, volume: 0.5 }] }] }));
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

// ---- property: ramps are monotone between steps and land on the step values ------------------

/** The engine's block (dsp/assembly/lib/constants.ts BLOCK): with the limiter off, one render of
 *  BLOCK frames computes exactly one engine block, so a channel's phase advance over it is that
 *  block's mean frequency (x FS / BLOCK). Below FS / BLOCK = 187.5 Hz a block advances less than a
 *  cycle, so the advance modulo 1 is the whole of it. */
const BLOCK = 256;
const KINDS = ["linear", "ease", "exponential", "hold"] as const;

interface Change {
  kind: (typeof KINDS)[number];
  /** Milliseconds the ramp takes (for a hold: the wait before the jump). */
  ms: number;
  /** Milliseconds the new values are held after the step (longer than the 10 ms jump glide plus
   *  two engine blocks, so some block lies wholly on them). */
  holdMs: number;
  /** One frequency per channel, in hundredths of a hertz. */
  f: number[];
}

const freqArb = fc.integer({ min: 2000, max: 18000 }); // 20-180 Hz
const changeArb: fc.Arbitrary<Change> = fc.record({
  kind: fc.constantFrom(...KINDS),
  ms: fc.integer({ min: 5, max: 400 }),
  holdMs: fc.integer({ min: 22, max: 60 }),
  f: fc.array(freqArb, { minLength: 4, maxLength: 4 }),
});

/** A session whose four channels start at f0 and go through the changes: each change is a step of
 *  its kind at its time, then a step holding the same values holdMs later (the next ramp starts there). */
function scheduleOf(f0: number[], first: number, changes: Change[]): { state: AudioState; steps: { at: number; kind: Change["kind"]; f: number[]; from: number[]; start: number; end: number }[] } {
  const state = defaultAudioState();
  state.channels = state.channels.map((c, i) => ({ ...c, frequency: f0[i] / 100, waveform: "sine", volume: 0.5, enabled: true }));
  for (const fx of Object.values(state.effects)) fx.enabled = false;
  const tl: TimelineStep[] = [{ at: first / 1000, ramp: "hold", channels: f0.map((f, i) => ({ id: i + 1, frequency: f / 100 })) }];
  const steps = [];
  let ms = first;
  let from = f0;
  for (const c of changes) {
    const start = ms;
    ms += c.ms;
    tl.push({ at: ms / 1000, ramp: c.kind, channels: c.f.map((f, i) => ({ id: i + 1, frequency: f / 100 })) });
    steps.push({ at: ms / 1000, kind: c.kind, f: c.f.map((f) => f / 100), from: from.map((f) => f / 100), start: start / 1000, end: (ms + c.holdMs) / 1000 });
    ms += c.holdMs;
    tl.push({ at: ms / 1000, ramp: "hold", channels: c.f.map((f, i) => ({ id: i + 1, frequency: f / 100 })) });
    from = c.f;
  }
  state.timeline = { steps: tl };
  state.duration = Math.ceil(ms / 1000) + 1;
  return { state, steps };
}

describe("timeline ramps (property over generated schedules)", () => {
  const schedules = fc.tuple(fc.array(freqArb, { minLength: 4, maxLength: 4 }), fc.integer({ min: 22, max: 60 }), fc.array(changeArb, { minLength: 1, maxLength: 4 }));

  it("the engine's measured frequency is monotone from each step to the next and holds the step's value after it, for linear, eased, exponential ramps and jumps", () => {
    fc.assert(
      fc.property(schedules, ([f0, first, changes]) => {
        const { state, steps } = scheduleOf(f0, first, changes);
        const engine = engineWith(state);
        engine.setCompressor(false);
        expect(engine.start({ delay: 0 })).toBe(true);
        const end = steps[steps.length - 1].end;
        const blocks = Math.ceil((end * FS) / BLOCK);
        // mean[c][k]: channel c's mean frequency over engine block k, from its phase advance.
        const mean = [0, 1, 2, 3].map(() => new Float64Array(blocks));
        const phase = [0, 1, 2, 3].map((c) => engine.channelPhase(c));
        for (let k = 0; k < blocks; k++) {
          engine.render(BLOCK);
          for (let c = 0; c < 4; c++) {
            const p = engine.channelPhase(c);
            mean[c][k] = ((((p - phase[c]) % 1) + 1) % 1) * (FS / BLOCK);
            phase[c] = p;
          }
        }
        for (const s of steps) {
          // Blocks from the ramp's start (the step before) to the end of the hold after this step.
          const k0 = Math.ceil((s.start * FS) / BLOCK);
          const k1 = Math.floor((s.end * FS) / BLOCK); // exclusive: block k1 runs past the hold
          // Blocks wholly after the step (after the jump's 10 ms glide for a hold).
          const settled = Math.ceil(((s.at + (s.kind === "hold" ? 0.01 : 0)) * FS) / BLOCK);
          expect(k1 - settled).toBeGreaterThanOrEqual(1);
          for (let c = 0; c < 4; c++) {
            const a = s.from[c];
            const b = s.f[c];
            const dir = Math.sign(b - a);
            const lo = Math.min(a, b) - 1e-9;
            const hi = Math.max(a, b) + 1e-9;
            for (let k = k0; k < k1; k++) {
              const m = mean[c][k];
              if (m < lo || m > hi) throw new Error(`channel ${c + 1}, ${s.kind} ${a} -> ${b} Hz: block ${k} at ${m} Hz is outside the ramp`);
              if (k > k0 && (m - mean[c][k - 1]) * dir < -1e-9) throw new Error(`channel ${c + 1}, ${s.kind} ${a} -> ${b} Hz: block ${k} at ${m} Hz turns back from ${mean[c][k - 1]} Hz`);
              if (k >= settled && Math.abs(m - b) > 1e-6) throw new Error(`channel ${c + 1}, ${s.kind} ${a} -> ${b} Hz: block ${k} after the step at ${m} Hz`);
            }
          }
        }
      }),
      { numRuns: 60 },
    );
  });

  it("the compiled segments (the engine's own evaluation, segmentValueAt) hit every step's value on its frame and are monotone between steps", () => {
    fc.assert(
      fc.property(schedules, ([f0, first, changes]) => {
        const { state, steps } = scheduleOf(f0, first, changes);
        const compiled = compileTimeline(resolveTimeline(state, state.timeline!), FS);
        for (const s of steps) {
          const n0 = Math.round(s.start * FS);
          const n1 = Math.round(s.at * FS);
          const nEnd = Math.round(s.end * FS);
          for (let c = 0; c < 4; c++) {
            const segs = compiled.channels[c];
            const a = s.from[c];
            const b = s.f[c];
            const dir = Math.sign(b - a);
            // On the frame the ramp starts from, and on the step's own frame (a jump: 10 ms later).
            expect(segmentValueAt(segs, n0).f).toBe(a);
            const landed = s.kind === "hold" ? n1 + Math.round(0.01 * FS) : n1;
            expect(Math.abs(segmentValueAt(segs, landed).f - b)).toBeLessThanOrEqual(1e-9 * b);
            expect(segmentValueAt(segs, nEnd - 1).f).toBe(segmentValueAt(segs, landed).f);
            let prev = a;
            for (let i = 1; i <= 64; i++) {
              const f = segmentValueAt(segs, n0 + Math.round(((nEnd - 1 - n0) * i) / 64)).f;
              expect((f - prev) * dir).toBeGreaterThanOrEqual(-1e-9);
              expect(f).toBeGreaterThanOrEqual(Math.min(a, b) - 1e-9);
              expect(f).toBeLessThanOrEqual(Math.max(a, b) + 1e-9);
              prev = f;
            }
          }
        }
      }),
      { numRuns: 100 },
    );
  });
});
