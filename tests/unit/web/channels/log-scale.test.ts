// The frequency slider's log scale: 1 Hz to 20 kHz, octaves the same width, fine steps.
import { describe, expect, it } from "vitest";
import { SLIDER_STEPS, frequencyToPosition, positionToFrequency } from "../../../../web/channels/log-scale";

describe("frequency slider scale", () => {
  it("runs from 1 Hz to 20 kHz; 0 Hz (off) sits at the left end", () => {
    expect(positionToFrequency(0)).toBe(1);
    expect(positionToFrequency(SLIDER_STEPS)).toBe(20000);
    expect(frequencyToPosition(0)).toBe(0);
    expect(frequencyToPosition(20000)).toBe(SLIDER_STEPS);
    expect(frequencyToPosition(99999)).toBe(SLIDER_STEPS);
  });

  it("puts 432 Hz at ln 432 / ln 20000 of the way (61.3 %), within 2 %", () => {
    const expected = Math.log(432) / Math.log(20000);
    expect(Math.abs(frequencyToPosition(432) / SLIDER_STEPS - expected)).toBeLessThan(0.02);
    expect(expected).toBeCloseTo(0.613, 3);
  });

  it("every octave is as wide; one step moves the frequency by about 0.1 % (under 2 cents)", () => {
    const octave = (f: number) => frequencyToPosition(2 * f) - frequencyToPosition(f);
    expect(Math.abs(octave(55) - octave(5000))).toBeLessThanOrEqual(1);
    const ratio = positionToFrequency(5001) / positionToFrequency(5000);
    expect(1200 * Math.log2(ratio)).toBeLessThan(2);
  });

  it("a frequency goes to its position and back within one step", () => {
    for (const f of [1, 6, 7.83, 40, 432, 528, 963, 10000]) {
      const back = positionToFrequency(frequencyToPosition(f));
      expect(Math.abs(Math.log(back / f))).toBeLessThan(0.001);
    }
  });
});
