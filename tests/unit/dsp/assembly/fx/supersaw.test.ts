// Supersaw: five detuned saw voices per channel spread up (or down) to half the value in cents, at the tone's level.

import { describe, expect, it } from "vitest";
import { FS, db, levelAt, magnitude, peak, renderFrames } from "../helpers";
import { mono, render, retune, tone } from "./helpers";

describe("supersaw", () => {
  const size = 2 ** 17;
  const ratio = (cents: number) => 2 ** (cents / 1200);

  for (const value of [100, -100]) {
    it(`value ${value}: five saw voices spread ${value > 0 ? "up" : "down"} to ${value / 2} cents`, () => {
      const mag = magnitude(mono(render(tone(1000, "supersaw", { value }), 3)), size, 4800, size);
      const ref = levelAt(magnitude(render(tone(1000), 3).left, size, 4800, size), 1000, FS, size, 1);
      for (let k = 1; k <= 4; k++) {
        // Voice k: saw fundamental 2/pi at the tone's level, times its mono pan gain (>= 0.54).
        const f = 1000 * ratio((k * value) / 8);
        expect(db(levelAt(mag, f, FS, size, 0.5) / ref), `voice ${k}`).toBeGreaterThan(-10);
        expect(db(levelAt(mag, 2 * f, FS, size, 0.5) / ref), `voice ${k}, 2nd harmonic`).toBeGreaterThan(-16);
      }
      // Nothing on the other side of the channel.
      const mirror = 1000 * ratio((-value) / 4);
      expect(db(levelAt(mag, mirror, FS, size, 1) / ref)).toBeLessThan(-40);
    });
  }

  it("each voice sits at the channel's tone level (saw fundamental 2/pi, equal-power pan)", () => {
    const { left } = render(tone(1000, "supersaw", { value: 100 }), 3);
    const dry = render(tone(1000), 3).left;
    const mag = magnitude(left, size, 4800, size);
    const ref = levelAt(magnitude(dry, size, 4800, size), 1000, FS, size, 1);
    const f1 = 1000 * ratio(12.5);
    const pan = Math.cos(((-0.5 + 1) * Math.PI) / 4); // voice 1 leans left
    expect(db(levelAt(mag, f1, FS, size, 0.5) / ref)).toBeCloseTo(db((2 / Math.PI) * pan), 0);
  });

  it("follows a channel change and is silent when no channel sounds", () => {
    const s = tone(1000, "supersaw", { value: 100 });
    const r = render(s, 0.5);
    const after = retune(r, s, 1500, 3);
    const mag = magnitude(after, size, 9600, size); // left: voice 4 (50 cents) leans right, -22 dB
    expect(db(levelAt(mag, 1500 * ratio(37.5), FS, size, 0.5) / levelAt(mag, 1500, FS, size, 1))).toBeGreaterThan(-12);
    expect(db(levelAt(mag, 1000 * ratio(37.5), FS, size, 0.5) / levelAt(mag, 1500, FS, size, 1))).toBeLessThan(-60);
    s.channels[0].frequency = 0;
    r.engine.apply(s);
    const tail = renderFrames(r.engine, 24000, 128).left; // the voices swell out over ~20 ms
    expect(peak(tail.subarray(7200))).toBeLessThan(2e-3);
    expect(peak(tail.subarray(19200))).toBe(0);
  });
});
