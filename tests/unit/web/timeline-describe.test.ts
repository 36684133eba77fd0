// The live description of the selected step and the handles' value text (web/timeline/describe.ts).

import { describe, expect, it } from "vitest";
import type { TimelineStep } from "../../../dsp/host/timeline";
import { describeStep, stepValueText } from "../../../web/timeline/describe";
import { NO_STEP_SELECTED } from "../../../web/timeline/messages";

const steps: TimelineStep[] = [
  { at: 0, ramp: "hold", channels: [{ id: 1, frequency: 200 }] },
  {
    at: 2400, ramp: "exponential", label: "theta",
    channels: [{ id: 1, frequency: 800, volume: 0.25 }, { id: 2, enabled: false }],
    effects: { binaural: { enabled: true, value: 4 }, noise: { value: 30, type: "pink" } },
  },
  { at: 2406.5, ramp: "linear" },
];

describe("step descriptions", () => {
  it("says where the step is, how it is reached and what it changes", () => {
    expect(describeStep(steps, 0)).toBe("Step 1 of 3 at 00:00:00: channel 1 200 Hz.");
    expect(describeStep(steps, 1)).toBe(
      "Step 2 of 3 (theta) at 00:40:00, exponential ramp: channel 1 800 Hz, volume 25 %; channel 2 off; Binaural Beat on, 4.0 Hz; Noise 30 %, type pink.",
    );
    expect(describeStep(steps, 2)).toBe("Step 3 of 3 at 00:40:06.5, linear ramp: no changes.");
    expect(describeStep(steps, 3)).toBe(NO_STEP_SELECTED);
  });

  it("gives each handle its time and ramp as value text", () => {
    expect(steps.map(stepValueText)).toEqual(["00:00:00", "00:40:00, exponential ramp", "00:40:06.5, linear ramp"]);
  });
});
