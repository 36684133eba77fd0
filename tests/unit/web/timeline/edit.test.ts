// The timeline editor's pure edits (web/timeline/edit.ts) and step times (web/timeline/time.ts).

import { describe, expect, it } from "vitest";
import { MAX_TIMELINE_STEPS } from "../../../../dsp/host/model/limits";
import { defaultAudioState } from "../../../../dsp/host/schema/state";
import { evaluateTimeline, resolveTimeline, timelineSchema, type Timeline } from "../../../../dsp/host/schema/timeline";
import {
  addStep, clearStepChannel, clearStepEffect, moveStep, newStepTime, nudgeStep, removeStep, setStepChannel,
  setStepEffect, stateAtStep, stepIndexAt, updateStep, STEP_GAP_SECONDS,
} from "../../../../web/timeline/edit";
import { BAD_TIME, TIMELINE_FULL, TIME_TOO_LATE } from "../../../../web/timeline/messages";
import { formatStepTime, formatTickTime, parseStepTime } from "../../../../web/timeline/time";

const tl = (...ats: number[]): Timeline => ({ steps: ats.map((at, i) => ({ at, ramp: "hold" as const, label: `s${i}` })) });
const labels = (t: Timeline | undefined) => t?.steps.map((s) => s.label) ?? [];
const times = (t: Timeline | undefined) => t?.steps.map((s) => s.at) ?? [];

function added(t: Timeline | undefined, at: number, init = {}) {
  const r = addStep(t, at, init);
  if (!r.ok) throw new Error(r.error);
  return r;
}

describe("addStep", () => {
  it("builds the two-step ramp a user types: 200 Hz at 0:00, 800 Hz linear at 0:06", () => {
    let r = added(undefined, 0);
    let t = setStepChannel(r.timeline, r.index, 1, { frequency: 200 }).timeline;
    r = added(t, 6, { ramp: "linear" });
    t = setStepChannel(r.timeline, r.index, 1, { frequency: 800 }).timeline;
    expect(t).toEqual({ steps: [{ at: 0, ramp: "hold", channels: [{ id: 1, frequency: 200 }] }, { at: 6, ramp: "linear", channels: [{ id: 1, frequency: 800 }] }] });
    // What the engine is told plays: 200 Hz, 500 Hz halfway, 800 Hz at the end.
    const steps = resolveTimeline(defaultAudioState(), t!);
    expect([0, 3, 6].map((s) => evaluateTimeline(steps, s).channels[0].frequency)).toEqual([200, 500, 800]);
  });

  it("keeps the steps sorted and puts a new step after one at the same time", () => {
    const r = added(tl(0, 10, 20), 10, { label: "new" });
    expect(labels(r.timeline)).toEqual(["s0", "s1", "new", "s2"]);
    expect(r.index).toBe(2);
  });

  it("clamps the time to 0..12 h and whole milliseconds", () => {
    expect(added(undefined, -5).timeline!.steps[0].at).toBe(0);
    expect(added(undefined, 99_999).timeline!.steps[0].at).toBe(43200);
    expect(added(undefined, 1.23456).timeline!.steps[0].at).toBe(1.235);
    expect(added(undefined, Number.NaN).timeline!.steps[0].at).toBe(0);
  });

  it("refuses a step past MAX_TIMELINE_STEPS with the message", () => {
    const full: Timeline = { steps: Array.from({ length: MAX_TIMELINE_STEPS }, (_, i) => ({ at: i, ramp: "hold" })) };
    expect(addStep(full, 1000)).toEqual({ ok: false, error: TIMELINE_FULL });
    expect(TIMELINE_FULL).toBe("A timeline holds at most 1000 steps.");
    expect(addStep({ steps: full.steps.slice(1) }, 1000).ok).toBe(true);
  });

  it("places new steps at the playhead while playing, else 0 or after the last step", () => {
    expect(newStepTime(undefined, null)).toBe(0);
    expect(newStepTime(tl(0, 30), null)).toBe(30 + STEP_GAP_SECONDS);
    expect(newStepTime(tl(0, 30), 12.4)).toBe(12);
    expect(newStepTime(tl(43200), null)).toBe(43200);
  });
});

describe("moveStep and nudgeStep", () => {
  it("re-sorts and reports where the moved step went", () => {
    const r = moveStep(tl(0, 10, 20, 30), 1, 25);
    expect(labels(r.timeline)).toEqual(["s0", "s2", "s1", "s3"]);
    expect(times(r.timeline)).toEqual([0, 20, 25, 30]);
    expect(r.index).toBe(2);
  });

  it("goes after a step at the same time when moved later, before it when moved earlier", () => {
    expect(labels(moveStep(tl(0, 10, 20), 0, 10).timeline)).toEqual(["s1", "s0", "s2"]);
    expect(labels(moveStep(tl(0, 10, 20), 2, 10).timeline)).toEqual(["s0", "s2", "s1"]);
  });

  it("moves by 1 s and 10 s from the keyboard, never below 0", () => {
    expect(times(nudgeStep(tl(0, 10), 1, 1).timeline)).toEqual([0, 11]);
    expect(times(nudgeStep(tl(0, 10), 1, -10).timeline)).toEqual([0, 0]);
    const left = nudgeStep(tl(0, 5), 1, -10);
    expect(times(left.timeline)).toEqual([0, 0]);
    expect(left.index).toBe(0); // moved earlier onto 0: before the step already there
    expect(nudgeStep(tl(0, 10), 0, -1).timeline).toEqual(tl(0, 10)); // already at 0: nothing changes
  });

  it("leaves the timeline alone for an index that is not a step", () => {
    const t = tl(0, 10);
    expect(moveStep(t, 5, 3)).toEqual({ timeline: t, index: -1 });
    expect(nudgeStep(undefined, 0, 1)).toEqual({ timeline: undefined, index: -1 });
  });
});

describe("updateStep", () => {
  it("changes ramp and name, removes an empty name, and re-sorts on a new time", () => {
    let r = updateStep(tl(0, 10, 20), 1, { ramp: "exponential", label: "theta" });
    expect(r.timeline!.steps[1]).toEqual({ at: 10, ramp: "exponential", label: "theta" });
    r = updateStep(r.timeline, 1, { label: "  " });
    expect(r.timeline!.steps[1]).toEqual({ at: 10, ramp: "exponential" });
    r = updateStep(r.timeline, 1, { at: 30 });
    expect(times(r.timeline)).toEqual([0, 20, 30]);
    expect(r.index).toBe(2);
    expect(r.timeline!.steps[2].ramp).toBe("exponential");
  });

  it("keeps the step as it was for a name the model refuses (over 64 characters)", () => {
    const t = tl(0, 10);
    expect(updateStep(t, 1, { label: "x".repeat(65) }).timeline).toEqual(t);
  });
});

describe("channel and effect changes", () => {
  it("sets only the values given, clamped by the model, and clears them", () => {
    let t = setStepChannel(tl(0, 10), 1, 2, { frequency: 25000.456 }).timeline;
    t = setStepChannel(t, 1, 2, { volume: 3, waveform: "triangle" }).timeline;
    t = setStepChannel(t, 1, 1, { enabled: false }).timeline;
    expect(t!.steps[1].channels).toEqual([{ id: 1, enabled: false }, { id: 2, frequency: 20000, volume: 1, waveform: "triangle" }]);
    t = clearStepChannel(t, 1, 2).timeline;
    expect(t!.steps[1].channels).toEqual([{ id: 1, enabled: false }]);
    t = clearStepChannel(t, 1, 1).timeline;
    expect(t!.steps[1]).toEqual({ at: 10, ramp: "hold", label: "s1" });
  });

  it("sets an effect's switch, value and extras within the catalogue, and clears it", () => {
    let t = setStepEffect(tl(0, 10), 1, "binaural", { enabled: true, value: 4 }).timeline;
    t = setStepEffect(t, 1, "noise", { enabled: true, value: 500, type: "pink", color: -300 }).timeline;
    expect(t!.steps[1].effects).toEqual({ binaural: { enabled: true, value: 4 }, noise: { enabled: true, value: 100, type: "pink", color: -100 } });
    t = setStepEffect(t, 1, "binaural", { value: 3.5 }).timeline;
    expect(t!.steps[1].effects!.binaural).toEqual({ enabled: true, value: 3.5 });
    t = clearStepEffect(t, 1, "noise").timeline;
    t = clearStepEffect(t, 1, "binaural").timeline;
    expect(t!.steps[1].effects).toBeUndefined();
  });

  it("drops an effect the catalogue does not know", () => {
    const t = setStepEffect(tl(0), 0, "nope", { enabled: true, value: 1 }).timeline;
    expect(t!.steps[0].effects).toEqual({});
  });

  it("every edit's result passes the timeline schema unchanged", () => {
    let t = added(undefined, 0).timeline;
    t = setStepChannel(t, 0, 3, { frequency: 14, waveform: "square" }).timeline;
    t = added(t, 2400, { ramp: "ease" }).timeline;
    t = setStepEffect(t, 1, "isoPulses", { enabled: true, value: 4 }).timeline;
    expect(timelineSchema.parse(t)).toEqual(t);
  });
});

describe("removeStep and stepIndexAt", () => {
  it("selects the step that took the removed one's place, and empties to no timeline", () => {
    let r = removeStep(tl(0, 10, 20), 1);
    expect(labels(r.timeline)).toEqual(["s0", "s2"]);
    expect(r.index).toBe(1);
    r = removeStep(r.timeline, 1);
    expect(r.index).toBe(0);
    r = removeStep(r.timeline, 0);
    expect(r).toEqual({ timeline: undefined, index: -1 });
  });

  it("finds the step that sets what plays at a time", () => {
    const t = tl(5, 10, 10, 20);
    expect([0, 5, 9.99, 10, 15, 20, 99].map((s) => stepIndexAt(t, s))).toEqual([-1, 0, 0, 2, 2, 3, 3]);
    expect(stepIndexAt(undefined, 3)).toBe(-1);
  });
});

describe("step times", () => {
  it("formats HH:MM:SS with a fraction only when there is one", () => {
    expect(formatStepTime(6)).toBe("00:00:06");
    expect(formatStepTime(2400)).toBe("00:40:00");
    expect(formatStepTime(43200)).toBe("12:00:00");
    expect(formatStepTime(2.5)).toBe("00:00:02.5");
    expect(formatStepTime(61.125)).toBe("00:01:01.125");
    expect(formatTickTime(90)).toBe("1:30");
    expect(formatTickTime(3720)).toBe("1:02:00");
  });

  it("reads SS, MM:SS and HH:MM:SS as written", () => {
    expect(parseStepTime("6")).toEqual({ ok: true, seconds: 6 });
    expect(parseStepTime("0:00:06")).toEqual({ ok: true, seconds: 6 });
    expect(parseStepTime("1:30")).toEqual({ ok: true, seconds: 90 });
    expect(parseStepTime(" 00:40:00 ")).toEqual({ ok: true, seconds: 2400 });
    expect(parseStepTime("00:00:02.5")).toEqual({ ok: true, seconds: 2.5 });
    expect(parseStepTime("90")).toEqual({ ok: true, seconds: 90 });
  });

  it("rejects what is not a time, and times past 12 hours, with the message", () => {
    for (const bad of ["", "abc", "1:60", "1:75:00", "1::2", "-3", "1:2:3:4"]) expect(parseStepTime(bad)).toEqual({ ok: false, error: BAD_TIME });
    expect(parseStepTime("12:00:01")).toEqual({ ok: false, error: TIME_TOO_LATE });
    expect(parseStepTime("12:00:00")).toEqual({ ok: true, seconds: 43200 });
  });
});

describe("stateAtStep", () => {
  it("shows what each step leaves playing: the session's values plus every change up to it", () => {
    const base = defaultAudioState();
    const t: Timeline = {
      steps: [
        { at: 0, ramp: "hold", channels: [{ id: 1, frequency: 200 }] },
        { at: 6, ramp: "linear", channels: [{ id: 1, frequency: 800 }], effects: { binaural: { enabled: true, value: 4 } } },
        { at: 9, ramp: "hold", channels: [{ id: 2, enabled: false }] },
      ],
    };
    expect(stateAtStep(base, t, 0).channels.map((c) => c.frequency)).toEqual([200, 528, 639, 741]);
    const second = stateAtStep(base, t, 1);
    expect(second.channels[0].frequency).toBe(800);
    expect(second.effects.binaural).toEqual({ enabled: true, value: 4 });
    const third = stateAtStep(base, t, 2);
    expect(third.channels[0].frequency).toBe(800);
    expect(third.channels[1].enabled).toBe(false);
    expect(third.at).toBe(9);
  });
});
