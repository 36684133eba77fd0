// The timeline model: interpolation exact at step boundaries and monotone between them, the
// compiled engine segments, the lenient schema, and timelines in presets and share links.

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { decodeConfig, encodeConfig, parsePreset } from "../../../../../dsp/host/schema/preset";
import { defaultAudioState } from "../../../../../dsp/host/schema/state";
import {
  RAMPS, compileEffects, compileTimeline, evaluateTimeline, interpolate, resolveTimeline, segmentValueAt, timelineSchema,
  type Ramp, type Timeline,
} from "../../../../../dsp/host/schema/timeline";
import { MAX_TIMELINE_STEPS } from "../../../../../dsp/host/model/limits";

const FS = 48000;
const base = defaultAudioState();

describe("interpolation", () => {
  const ramps = RAMPS.filter((r) => r !== "hold") as Exclude<Ramp, "hold">[];
  it("is exact at both ends and monotone between them, for every ramp", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...ramps), fc.double({ min: 0.01, max: 20000, noNaN: true }), fc.double({ min: 0.01, max: 20000, noNaN: true }),
        fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: 2, maxLength: 20 }),
        (ramp, a, b, us) => {
          expect(interpolate(ramp, a, b, 0)).toBe(a);
          expect(interpolate(ramp, a, b, 1)).toBeCloseTo(b, 9);
          const sorted = [...us].sort((x, y) => x - y).map((u) => interpolate(ramp, a, b, u));
          for (let i = 1; i < sorted.length; i++) {
            if (b >= a) expect(sorted[i]).toBeGreaterThanOrEqual(sorted[i - 1] - 1e-9);
            else expect(sorted[i]).toBeLessThanOrEqual(sorted[i - 1] + 1e-9);
          }
        },
      ),
    );
  });

  it("evaluates the schedule's own values at every step time", () => {
    const timeline: Timeline = {
      steps: [
        { at: 60, ramp: "linear", channels: [{ id: 1, frequency: 200 }] },
        { at: 120, ramp: "ease", channels: [{ id: 1, frequency: 100 }, { id: 2, volume: 0.2 }] },
        { at: 180, ramp: "exponential", channels: [{ id: 1, frequency: 1600 }] },
        { at: 240, ramp: "hold", channels: [{ id: 1, frequency: 50 }] },
      ],
    };
    const steps = resolveTimeline(base, timeline);
    const compiled = compileTimeline(steps, FS);
    for (const s of steps) {
      const point = evaluateTimeline(steps, s.at);
      expect(point.channels[0].frequency).toBeCloseTo(s.channels[0].frequency, 9);
      if (s.ramp !== "hold") {
        // The engine's segments reach the value on the step's own frame.
        expect(segmentValueAt(compiled.channels[0], Math.round(s.at * FS)).f).toBeCloseTo(s.channels[0].frequency, 6);
      }
    }
    // Halfway through the exponential ramp 100 -> 1600 Hz is two octaves up: 400 Hz.
    expect(evaluateTimeline(steps, 150).channels[0].frequency).toBeCloseTo(400, 6);
    // A jump keeps the old value until its time and reaches the new one 10 ms later.
    expect(segmentValueAt(compiled.channels[0], 240 * FS - 1).f).toBeCloseTo(1600, 6);
    expect(segmentValueAt(compiled.channels[0], 240 * FS + 480).f).toBe(50);
  });

  it("keeps a silent channel's pitch, so it fades in and out instead of sweeping from 0 Hz", () => {
    const timeline: Timeline = {
      steps: [
        { at: 10, ramp: "linear", channels: [{ id: 4, enabled: false }] },
        { at: 20, ramp: "linear", channels: [{ id: 4, enabled: true, frequency: 300 }] },
      ],
    };
    const segs = compileTimeline(resolveTimeline(base, timeline), FS).channels[3];
    const mid1 = segmentValueAt(segs, 5 * FS);
    expect(mid1.f).toBe(741);
    expect(mid1.g).toBeCloseTo(0.5, 9);
    const mid2 = segmentValueAt(segs, 15 * FS);
    expect(mid2.f).toBeCloseTo(741 + (300 - 741) * 0.5, 6);
    expect(mid2.g).toBeCloseTo(0.5, 9);
  });

  it("compiles effect ramps, keeping switches and choices until the step", () => {
    const state = defaultAudioState();
    state.effects.binaural = { ...state.effects.binaural, enabled: true, value: 14 };
    const steps = resolveTimeline(state, {
      steps: [
        { at: 2400, ramp: "linear", effects: { binaural: { value: 4 } } },
        { at: 2500, ramp: "hold", effects: { noise: { enabled: true, type: "pink" } } },
      ],
    });
    const fx = compileEffects(steps, FS);
    const binaural = fx.find((f) => f.id === "binaural");
    expect(binaural?.segments[0]).toMatchObject({ start: 0, enabled: true, curve: 0 });
    expect(binaural?.segments[0].from[0]).toBe(14);
    expect(binaural?.segments[0].to[0]).toBe(4);
    const noise = fx.find((f) => f.id === "noise");
    expect(noise?.segments.map((s) => [s.start, s.enabled, s.from[1]])).toEqual([[0, false, 0], [2500 * FS, true, 1]]);
  });
});

describe("schema", () => {
  it("sorts steps, clamps values, drops unknown effects and makes unknown ramps holds", () => {
    const parsed = timelineSchema.parse({
      steps: [
        { at: 90, ramp: "wobble", channels: [{ id: 2, frequency: 99999 }], effects: { nope: { value: 1 }, reverb: { value: 500 } } },
        { at: -5, ramp: "linear", channels: [{ id: 1, waveform: "noise", volume: 3 }] },
      ],
    });
    expect(parsed.steps[0]).toEqual({ at: 0, ramp: "linear", channels: [{ id: 1, volume: 1 }] });
    expect(parsed.steps[1]).toEqual({ at: 90, ramp: "hold", channels: [{ id: 2, frequency: 20000 }], effects: { reverb: { value: 100 } } });
  });

  it("refuses wrong types and too many steps with a clear message", () => {
    const bad = parsePreset({ ...base, timeline: { steps: [{ at: "soon" }] } });
    expect(bad).toEqual({ ok: false, error: "timeline.steps[0].at must be a number" });
    const many = parsePreset({ ...base, timeline: { steps: Array.from({ length: MAX_TIMELINE_STEPS + 1 }, (_, i) => ({ at: i })) } });
    expect(many).toEqual({ ok: false, error: `timeline.steps must hold at most ${MAX_TIMELINE_STEPS} steps` });
    const twice = parsePreset({ ...base, timeline: { steps: [{ at: 1, channels: [{ id: 1 }, { id: 1 }] }] } });
    expect(twice).toEqual({ ok: false, error: "timeline.steps[0].channels must not repeat a channel id" });
  });

  it("travels in presets and share links, and a preset without steps stays as it was", () => {
    const timeline: Timeline = { steps: [{ at: 2400, ramp: "linear", channels: [{ id: 1, frequency: 100 }], label: "theta" }] };
    const preset = { channels: base.channels, effects: base.effects, duration: 2400, timeline };
    const parsed = parsePreset(JSON.parse(JSON.stringify(preset)));
    expect(parsed.ok && parsed.state.timeline).toEqual(timeline);
    const link = decodeConfig(encodeConfig(preset));
    expect(link.ok && link.state.timeline).toEqual(timeline);
    const plain = parsePreset({ channels: base.channels, effects: base.effects, duration: 60, timeline: { steps: [] } });
    expect(plain.ok && "timeline" in plain.state).toBe(false);
  });
});
