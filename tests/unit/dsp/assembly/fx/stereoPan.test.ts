// Stereo Pan: places the sound between left (-100) and right (100) by the equal-power law.

import { describe, expect, it } from "vitest";
import { rms, singleTone } from "../helpers";
import { render, tone } from "./helpers";

describe("stereoPan", () => {
  it("places the sound by the equal-power law", () => {
    const centre = render(singleTone(600), 0.5);
    const c = rms(centre.left, 4800);
    for (const v of [-100, -50, 0, 30, 100]) {
      const { left, right } = render(tone(600, "stereoPan", { value: v }), 0.5);
      const l = rms(left, 4800), r = rms(right, 4800);
      const th = ((v / 100 + 1) * Math.PI) / 4;
      expect(l / c, `left at ${v}`).toBeCloseTo(Math.SQRT2 * Math.cos(th), 2);
      expect(r / c, `right at ${v}`).toBeCloseTo(Math.SQRT2 * Math.sin(th), 2);
    }
  });
});
