// Integrated loudness per ITU-R BS.1770-4 (dsp/host/analysis/loudness.ts): the K-weighting reproduces the
// standard's 48 kHz coefficients; EBU Tech 3341's reference signals read their stated loudness
// within 0.1 LU (steady stereo sines at -23 and -33 dBFS; the gating cases 3 and 4 with quiet
// and very quiet passages around a -23 dBFS part); a full-scale 997 Hz sine in one channel reads
// -3.01 LUFS (the standard's calibration); silence is -Infinity; chunking does not matter.
import { describe, expect, it } from "vitest";
import { kWeighting, LoudnessMeter } from "../../../../../dsp/host/analysis/loudness";

const FS = 48000;

/** Stereo sine segments: [seconds, dBFS per channel (null = silent channel)]. */
function measure(parts: [number, number | null, number | null][], hz = 1000, chunk = 4800): number {
  const meter = new LoudnessMeter(FS, 2);
  let n0 = 0;
  for (const [seconds, left, right] of parts) {
    const frames = Math.round(seconds * FS);
    const gl = left === null ? 0 : 10 ** (left / 20);
    const gr = right === null ? 0 : 10 ** (right / 20);
    for (let start = 0; start < frames; start += chunk) {
      const len = Math.min(chunk, frames - start);
      const l = new Float64Array(len);
      const r = new Float64Array(len);
      for (let i = 0; i < len; i++) {
        const s = Math.sin((2 * Math.PI * hz * (n0 + start + i)) / FS);
        l[i] = gl * s;
        r[i] = gr * s;
      }
      meter.push(l, r);
    }
    n0 += frames;
  }
  return meter.integrated();
}

describe("loudness (BS.1770)", () => {
  it("K-weighting at 48 kHz is the standard's pair of biquads", () => {
    const [shelf, highpass] = kWeighting(48000);
    const close = (got: number[], want: number[]) => got.forEach((v, i) => expect(v).toBeCloseTo(want[i], 8));
    close(shelf.b, [1.53512485958697, -2.69169618940638, 1.19839281085285]);
    close(shelf.a, [1, -1.69065929318241, 0.73248077421585]);
    close(highpass.b, [1, -2, 1]);
    close(highpass.a, [1, -1.99004745483398, 0.99007225036621]);
  });

  it("EBU Tech 3341 cases 1 and 2: stereo 1 kHz at -23 and -33 dBFS read -23 and -33 LUFS", () => {
    expect(Math.abs(measure([[20, -23, -23]]) - -23)).toBeLessThan(0.1);
    expect(Math.abs(measure([[20, -33, -33]]) - -33)).toBeLessThan(0.1);
  });

  it("EBU Tech 3341 cases 3 and 4: the gates leave out the quiet passages", () => {
    expect(Math.abs(measure([[10, -36, -36], [60, -23, -23], [10, -36, -36]]) - -23)).toBeLessThan(0.1);
    expect(Math.abs(measure([[10, -72, -72], [10, -36, -36], [60, -23, -23], [10, -36, -36], [10, -72, -72]]) - -23)).toBeLessThan(0.1);
  });

  it("a full-scale 997 Hz sine in one channel reads -3.01 LUFS", () => {
    expect(Math.abs(measure([[10, 0, null]], 997) - -3.01)).toBeLessThan(0.1);
  });

  it("silence, and anything shorter than one 400 ms block, is -Infinity", () => {
    expect(measure([[5, null, null]])).toBe(Number.NEGATIVE_INFINITY);
    expect(measure([[0.3, -10, -10]])).toBe(Number.NEGATIVE_INFINITY);
  });

  it("the chunk size does not change the reading", () => {
    const parts: [number, number, number][] = [[3, -20, -26]];
    expect(measure(parts, 440, 128)).toBeCloseTo(measure(parts, 440, 48000), 10);
  });
});
