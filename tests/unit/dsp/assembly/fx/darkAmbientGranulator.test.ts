// Dark Ambient Granulator: 0 % is dry; more smears the tone into a dark tail over its 5-500 ms lines.

import { describe, expect, it } from "vitest";
import { FS, db, magnitude, rms, sameBits, singleTone } from "../helpers";
import { burst, render, tone } from "./helpers";

describe("darkAmbientGranulator", () => {
  it("0 % is the dry signal", () => {
    const wet = render(tone(440, "darkAmbientGranulator", { value: 0 }, "sawtooth"), 0.5);
    const dry = render(singleTone(440, "sawtooth"), 0.5);
    expect(sameBits(wet.left, dry.left)).toBe(true);
  });

  it("leaves a dark tail spread over the 5-500 ms lines", () => {
    const b = 0.3;
    const out = burst(tone(440, "darkAmbientGranulator", { value: 100 }, "sawtooth"), b, 3);
    const dry = render(singleTone(440, "sawtooth"), b);
    const from = Math.round((b + 0.02) * FS);
    const slice = (s: number, e: number): number => rms(out.left, from + Math.round(s * FS), from + Math.round(e * FS)) + rms(out.right, from + Math.round(s * FS), from + Math.round(e * FS));
    const early = slice(0, 0.1), late = slice(0.3, 0.5), gone = slice(2.0, 2.6);
    expect(early).toBeGreaterThan(0.05 * rms(dry.left));
    expect(late).toBeGreaterThan(0.05 * early);
    expect(db(gone / early)).toBeLessThan(-40);
    // Dark: the share of energy above 2 kHz is far smaller in the tail than in the sawtooth.
    const high = (x: Float32Array, o: number): number => {
      const m = magnitude(x, 8192, o, 8192);
      let p = 0, h = 0;
      m.forEach((v, k) => { p += v * v; if ((k * FS) / 8192 > 2000) h += v * v; });
      return h / p;
    };
    expect(10 * Math.log10(high(out.left, from) / high(dry.left, 2400))).toBeLessThan(-12);
  });
});
