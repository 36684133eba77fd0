// Distortion: more drive gives more odd harmonics (no even ones) at a level-compensated RMS.

import { describe, expect, it } from "vitest";
import { db, magnitude, rms } from "../helpers";
import { rel, render, tone } from "./helpers";

describe("distortion", () => {
  const size = 32768;
  function measure(value: number) {
    const { left } = render(tone(440, "distortion", { value }), 1);
    const mag = magnitude(left, size, 9600, size);
    return { h3: rel(mag, 1320, 440, size), h2: rel(mag, 880, 440, size), level: rms(left, 9600) };
  }

  it("more drive, more odd harmonics; symmetric clipping adds no even ones", () => {
    const clean = measure(0), mid = measure(30), hot = measure(100);
    expect(clean.h3).toBeLessThan(-40);
    expect(mid.h3).toBeGreaterThan(clean.h3 + 10);
    expect(hot.h3).toBeGreaterThan(-15);
    expect(hot.h2).toBeLessThan(-80);
  });

  it("is level-compensated: the RMS stays within 1 dB of the dry tone at any drive", () => {
    const dry = rms(render(tone(440), 1).left, 9600);
    for (const value of [0, 30, 70, 100]) expect(Math.abs(db(measure(value).level / dry)), `value ${value}`).toBeLessThan(1);
  });
});
