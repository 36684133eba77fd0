// Chorus: three delay voices (14, 20, 26 ms at 0 % depth) spread across the stereo field; the value is the sweep depth.

import { describe, expect, it } from "vitest";
import { FS, db, magnitude, rms } from "../helpers";
import { mono, render, tone, withFx } from "./helpers";

describe("chorus", () => {
  it("value is the depth: no spread at 0 %, spreading the spectrum more as it grows", () => {
    const spread = (depth: number): number => {
      const { left } = render(tone(1000, "chorus", { value: depth }), 2.2);
      const size = 65536;
      const m = magnitude(left, size, 9600, size);
      const bin = FS / size;
      let inside = 0, outside = 0;
      for (let k = Math.round(500 / bin); k < Math.round(1500 / bin); k++) {
        if (Math.abs(k * bin - 1000) < 6) inside += m[k] ** 2; else outside += m[k] ** 2;
      }
      return db(Math.sqrt(outside / inside));
    };
    const s0 = spread(0), s30 = spread(30), s100 = spread(100);
    expect(s0).toBeLessThan(-60);
    expect(s30).toBeGreaterThan(-40);
    expect(s100).toBeGreaterThan(s30 + 6);
  });

  it("spreads three voices across the stereo field", () => {
    const { left, right } = render(tone(440, "chorus", { value: 50 }), 1);
    let diff = 0;
    for (let i = 9600; i < left.length; i++) diff += (left[i] - right[i]) ** 2;
    expect(Math.sqrt(diff / (left.length - 9600)) / rms(left, 9600)).toBeGreaterThan(0.1);
  });

  it("has three voices, 14, 20 and 26 ms behind the dry signal, panned left, centre and right at equal power", () => {
    // White noise (the noise effect, tone muted) through the chorus at 0 % depth, where the
    // voices are fixed delays: the output's cross-correlation with the dry noise (mono, which
    // the voices read) is the chorus's impulse response: 0.6 x dry plus one tap per voice.
    const noise = () => {
      const s = tone(1000, "noise", { value: 100 });
      s.channels[0].volume = 0;
      return s;
    };
    const dry = mono(render(noise(), 1.2));
    const wet = render(withFx(noise(), "chorus", { value: 0 }), 1.2);
    const from = 9600, n = 48000, lags = 1300;
    const energy = rms(dry, from, from + n) ** 2 * n;
    const response = (x: Float32Array): number[] => {
      const h: number[] = [];
      for (let k = 0; k <= lags; k++) {
        let s = 0;
        for (let i = from; i < from + n; i++) s += x[i] * dry[i - k];
        h.push(s / energy);
      }
      return h;
    };
    const l = response(wet.left), r = response(wet.right);
    const taps = l.map((_, k) => k).filter((k) => Math.max(Math.abs(l[k]), Math.abs(r[k])) > 0.05);
    expect(taps).toEqual([0, 0.014 * FS, 0.02 * FS, 0.026 * FS]);
    expect(Math.abs(l[0] - 0.6)).toBeLessThan(0.03);
    expect(Math.abs(r[0] - 0.6)).toBeLessThan(0.03);
    const [left, centre, right] = taps.slice(1);
    for (const k of taps.slice(1)) expect(Math.abs(l[k] ** 2 + r[k] ** 2 - 2 * 0.3 ** 2), `power of the tap at ${k}`).toBeLessThan(0.03);
    expect(l[left] / r[left]).toBeGreaterThan(2);
    expect(Math.abs(l[centre] / r[centre] - 1)).toBeLessThan(0.15);
    expect(r[right] / l[right]).toBeGreaterThan(2);
  });
});
