// Vocoder: the channel mix speaks the built-in a-e-i-o-u voice (vowel formants) and follows the channel.

import { describe, expect, it } from "vitest";
import { FS, db, levelAt, magnitude, peak, peakFrequency, renderFrames } from "../helpers";
import { render, retune, tone, wetAndDry } from "./helpers";

describe("vocoder", () => {
  /** Output/dry level (dB) of the harmonic nearest f in the window starting at t. */
  function response(out: Float32Array, dry: Float32Array, t: number, f: number): number {
    const size = 8192, off = Math.round(t * FS);
    return db(levelAt(magnitude(out, size, off, size), f, FS, size, 4) / levelAt(magnitude(dry, size, off, size), f, FS, size, 4));
  }

  it("speaks vowels: 'a' favours 770 Hz over 2.3 kHz, 'i' the reverse", () => {
    const { wet: out, dry } = wetAndDry(110, "vocoder", { value: 100 }, 1.2);
    // 'a' (F1 730, F2 1090) holds from 0 to 0.26 s; 'i' (F1 270, F2 2290) from 0.8 to 1.06 s.
    const a = response(out, dry, 0.05, 770) - response(out, dry, 0.05, 2310);
    const i = response(out, dry, 0.85, 2310) - response(out, dry, 0.85, 770);
    expect(a).toBeGreaterThan(5);
    expect(i).toBeGreaterThan(10);
  });

  it("follows a channel change and is silent when no channel sounds", () => {
    const s = tone(600, "vocoder", { value: 100 });
    const r = render(s, 0.3);
    const after = retune(r, s, 1200, 0.5);
    expect(peakFrequency(after.subarray(4800, 4800 + 16384), FS, 16384)).toBeCloseTo(1200, 0);
    s.channels[0].frequency = 0;
    r.engine.apply(s);
    expect(peak(renderFrames(r.engine, 14400, 128).left.subarray(9600))).toBeLessThan(1e-6);
  });
});
