// Stereo Width: scales the side signal by value/100 (0 % mono, 100 % unchanged, 200 % doubled) and keeps the mid.

import { describe, expect, it } from "vitest";
import { rms, sameBits, singleTone, type Stereo } from "../helpers";
import { render, withFx } from "./helpers";

/** A stereo source: a tone panned by stereoPan (the channels themselves are mono). */
const source = () => withFx(singleTone(600), "stereoPan", { value: 60 });

/** RMS of the mid (L + R) / 2 and the side (L - R) / 2, from 0.1 s. */
function midSide(s: Stereo): [number, number] {
  const m = new Float32Array(s.left.length), d = new Float32Array(s.left.length);
  for (let i = 0; i < m.length; i++) { m[i] = (s.left[i] + s.right[i]) / 2; d[i] = (s.left[i] - s.right[i]) / 2; }
  return [rms(m, 4800), rms(d, 4800)];
}

describe("stereoWidth", () => {
  it("0 % folds to mono, 100 % leaves the sound unchanged, 200 % doubles the side", () => {
    const mono = render(withFx(source(), "stereoWidth", { value: 0 }), 0.5);
    expect(sameBits(mono.left, mono.right)).toBe(true);
    const ref = render(source(), 0.5);
    const unity = render(withFx(source(), "stereoWidth", { value: 100 }), 0.5);
    let err = 0;
    for (let i = 0; i < ref.left.length; i++) err = Math.max(err, Math.abs(unity.left[i] - ref.left[i]), Math.abs(unity.right[i] - ref.right[i]));
    expect(err).toBeLessThan(1e-6);
    const wide = render(withFx(source(), "stereoWidth", { value: 200 }), 0.5);
    const [m0, s0] = midSide(ref), [m2, s2] = midSide(wide);
    expect(m2 / m0).toBeCloseTo(1, 3);
    expect(s2 / s0).toBeCloseTo(2, 3);
  });

  it("at the default 150 % widens the side by 1.5 and leaves the mid alone", () => {
    const [m0, s0] = midSide(render(source(), 0.5));
    const [m1, s1] = midSide(render(withFx(source(), "stereoWidth"), 0.5));
    expect(m1 / m0).toBeCloseTo(1, 3);
    expect(s1 / s0).toBeCloseTo(1.5, 3);
  });
});
