// Binaural Beat: the ears hear frequencies that differ by the set beat, centred on the channel, at the dry level.

import { describe, expect, it } from "vitest";
import { FS, peak, peakFrequency, singleTone } from "../helpers";
import { render, tone } from "./helpers";

describe("binaural", () => {
  for (const [f, beat] of [[200, 10], [432, 4.5], [1000, 40]] as const) {
    it(`${f} Hz with a ${beat} Hz beat: left ${f - beat / 2} Hz, right ${f + beat / 2} Hz`, () => {
      const { left, right } = render(tone(f, "binaural", { value: beat }), 4);
      const fl = peakFrequency(left.subarray(FS), FS, 2 ** 19);
      const fr = peakFrequency(right.subarray(FS), FS, 2 ** 19);
      expect(Math.abs(fr - fl - beat)).toBeLessThan(0.05);
      expect(Math.abs((fl + fr) / 2 - f)).toBeLessThan(0.05);
    });
  }

  it("keeps the level of the dry tone", () => {
    const dry = peak(render(singleTone(300), 1).left.subarray(FS / 2));
    const out = render(tone(300, "binaural", { value: 8 }), 1);
    expect(peak(out.left.subarray(FS / 2))).toBeCloseTo(dry, 2);
    expect(peak(out.right.subarray(FS / 2))).toBeCloseTo(dry, 2);
  });
});
