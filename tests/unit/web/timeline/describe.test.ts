// The live description of the selected step and the handles' value text (web/timeline/describe.ts).

import { describe, expect, it } from "vitest";
import { defaultAudioState } from "../../../../dsp/host/schema/state";
import { resolveTimeline, type Timeline, type TimelineStep } from "../../../../dsp/host/schema/timeline";
import { describeStep, stepValueText } from "../../../../web/timeline/describe";
import { stateAtStep } from "../../../../web/timeline/edit";
import { NO_STEP_SELECTED } from "../../../../web/timeline/messages";

const base = defaultAudioState();
base.channels = base.channels.map((c) => (c.id === 1 ? c : { ...c, enabled: false, frequency: 0 }));
const t: Timeline = {
  steps: [
    { at: 0, ramp: "hold", channels: [{ id: 1, frequency: 200 }] },
    {
      at: 2400, ramp: "exponential", label: "theta",
      channels: [{ id: 1, frequency: 800, volume: 0.25 }, { id: 2, enabled: true, frequency: 1500, waveform: "triangle" }],
      effects: { binaural: { enabled: true, value: 4 }, noise: { value: 30, type: "pink" } },
    },
    { at: 2406.5, ramp: "linear", channels: [{ id: 1, enabled: false }, { id: 2, volume: 0 }] },
  ],
};
const describeAt = (i: number) => describeStep(t.steps, i, stateAtStep(base, t, i));

describe("step descriptions", () => {
  it("says where the step is, how it is reached and what then plays", () => {
    expect(describeAt(0)).toBe("Step 1 of 3 at 00:00:00: channel 1 200 Hz.");
    // Noise is changed but stays off: it is not heard, so not named.
    expect(describeAt(1)).toBe("Step 2 of 3 (theta) at 00:40:00, exponential ramp: channel 1 800 Hz; channel 2 1.5 kHz triangle; Binaural Beat 4.0 Hz.");
    expect(describeAt(2)).toBe("Step 3 of 3 at 00:40:06.5, linear ramp: Binaural Beat 4.0 Hz.");
    expect(describeStep(t.steps, 3, base)).toBe(NO_STEP_SELECTED);
    expect(describeStep([{ at: 5, ramp: "hold", channels: [{ id: 1, enabled: false }] }], 0, { channels: base.channels.map((c) => ({ ...c, enabled: false })), effects: base.effects }))
      .toBe("Step 1 of 1 at 00:00:05, jump: silence.");
  });

  it("gives each handle its time and ramp as value text", () => {
    expect(t.steps.map(stepValueText)).toEqual(["00:00:00", "00:40:00, exponential ramp", "00:40:06.5, linear ramp"]);
  });
});

describe("voices in the description", () => {
  it("names the voices that sound at a step, from its own set or the last one before it", () => {
    const silent = resolveTimeline({ channels: defaultAudioState().channels.map((c) => ({ ...c, enabled: false })), effects: defaultAudioState().effects }, { steps: [] })[0];
    const steps: TimelineStep[] = [
      { at: 10, ramp: "linear", voices: [{ kind: "binaural", carrier: 200, beat: 10, amp: 50 }, { kind: "noise", colour: "pink", amp: 0 }] },
      { at: 20, ramp: "hold", label: "later" },
    ];
    expect(describeStep(steps, 1, silent)).toBe("Step 2 of 2 (later) at 00:00:20, jump: binaural 200 Hz beat 10 Hz 50 %.");
    expect(describeStep(steps, 0, silent, [])).toBe("Step 1 of 2 at 00:00:10, linear ramp: binaural 200 Hz beat 10 Hz 50 %.");
  });
});
