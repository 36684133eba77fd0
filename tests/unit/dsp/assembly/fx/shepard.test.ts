// Shepard Tone: octave layers glide endlessly up or down at the set rate, follow the channel, at a steady level.

import { describe, expect, it } from "vitest";
import { FS, db, magnitude, peak, renderFrames, rms } from "../helpers";
import { render, retune, tone } from "./helpers";

/** Frequency of the strongest component away from `avoid` in the window at t seconds. */
function strongestAway(x: Float32Array, t: number, avoid: number, size = 8192): number {
  const mag = magnitude(x, size, Math.round(t * FS), size);
  let k = 0;
  for (let i = 5; i < mag.length - 1; i++) {
    const hz = (i * FS) / size;
    if (Math.abs(hz - avoid) < 25) continue;
    if (mag[i] > mag[k]) k = i;
  }
  const a = db(mag[k - 1]), b = db(mag[k]), c = db(mag[k + 1]);
  return ((k + (0.5 * (a - c)) / (a - 2 * b + c)) * FS) / size;
}

const frac = (x: number) => x - Math.floor(x);
const circ = (a: number, b: number) => Math.min(frac(a - b), frac(b - a));

describe("shepard", () => {
  for (const [direction, sign] of [["up", 1], ["down", -1]] as const) {
    it(`layers glide ${direction} at the set rate in octave steps (octaves 3) and follow the channel`, () => {
      const s = tone(440, "shepard", { value: 0.5, direction, octaves: 3 });
      const r = render(s, 1.2);
      // All layers share one pitch class: delta = log2(F / f) mod 1 = frac(sign * rate * t + 1/2).
      for (const t of [0.2, 0.5, 0.8, 1.0]) {
        const F = strongestAway(r.left, t, 440);
        const mid = t + 4096 / FS;
        expect(circ(Math.log2(F / 440), sign * 0.5 * mid + 0.5), `t = ${t}`).toBeLessThan(0.02);
      }
      // Retune the channel: the layers move with it.
      const after = retune(r, s, 550, 0.8);
      const t0 = 1.2;
      for (const t of [0.3, 0.6]) {
        const F = strongestAway(after, t, 550);
        expect(circ(Math.log2(F / 550), sign * 0.5 * (t0 + t + 4096 / FS) + 0.5), `after, t = ${t}`).toBeLessThan(0.02);
      }
    });
  }

  it("keeps a constant total level while gliding and goes silent when no channel sounds", () => {
    const s = tone(440, "shepard");
    const r = render(s, 2.2);
    const dry = render(tone(440), 2.2).left;
    const layers = r.left.map((v, i) => v - dry[i]); // the channel restarts at phase 0 both times
    const env: number[] = [];
    for (let i = 4800; i + 4800 <= layers.length; i += 4800) env.push(rms(layers, i, i + 4800));
    // Loudnesses (2/3)(1/2 - 1/2 cos(2 pi x_j)) at thirds of a cycle apart: their squares sum to
    // 1/2 at every moment, so the layers' total RMS is a steady 0.15 * sqrt(1/2 * 1/2) = 0.075.
    expect(Math.max(...env) / Math.min(...env)).toBeLessThan(1.1);
    expect(Math.abs(db(rms(layers, 4800) / 0.075))).toBeLessThan(0.3);
    s.channels[0].frequency = 0;
    r.engine.apply(s);
    const tail = renderFrames(r.engine, 9600, 128).left;
    expect(peak(tail.subarray(4800))).toBe(0);
  });
});
