// The headphone check's test signals, measured as a listener's ears (and a mono fold) would get
// them: a one-sided tone is exactly silent on the other side, the antiphase tone cancels when
// summed to mono while the in-phase one does not, the polarity test's second tone has the right
// ear inverted, every edge is a 20 ms ramp with no step a click could come from, the level is
// -20 dBFS at the stated frequency, and the balance scales the ears as playback does.

import { describe, expect, it } from "vitest";
import { balanceGains, BALANCE_MAX_DB } from "../../../../dsp/host/schema/levels";
import {
  BALANCE_HZ, BALANCE_TURN_SECONDS, EDGE_SECONDS, GAP_SECONDS, LEFT_RIGHT_HZ, LEFT_RIGHT_SECONDS, MONO_FOLD_HZ,
  MONO_FOLD_SECONDS, POLARITY_HZ, POLARITY_SECONDS, TEST_LEVEL_DBFS, alternatingTone, edgeGain, monoFoldTest,
  oneSideTone, polarityTest, tone, withBalance, type TestSignal,
} from "../../../../web/headphone/signals";

const RATE = 48000;

const peak = (x: Float32Array, from = 0, to = x.length): number => {
  let m = 0;
  for (let i = from; i < to; i++) m = Math.max(m, Math.abs(x[i]));
  return m;
};
const db = (v: number): number => 20 * Math.log10(v);

/** Amplitude of `hz` in x[from..to) (a single-bin DFT). */
function amplitude(x: Float32Array, hz: number, from: number, to: number): number {
  let re = 0;
  let im = 0;
  for (let i = from; i < to; i++) {
    re += x[i] * Math.cos((2 * Math.PI * hz * i) / RATE);
    im += x[i] * Math.sin((2 * Math.PI * hz * i) / RATE);
  }
  return (2 * Math.hypot(re, im)) / (to - from);
}

/** The largest sample-to-sample step: a click shows as a step far above the sine's own slope. */
function largestStep(x: Float32Array): number {
  let m = Math.abs(x[0]);
  for (let i = 1; i < x.length; i++) m = Math.max(m, Math.abs(x[i] - x[i - 1]));
  return Math.max(m, Math.abs(x[x.length - 1]));
}

const part = (s: TestSignal, i: number) => ({ from: s.parts[i].start, to: s.parts[i].start + s.parts[i].frames });
const monoSum = (s: TestSignal): Float32Array => s.left.map((l, i) => (l + s.right[i]) / 2);

describe("tone", () => {
  it("peaks at -20 dBFS, at the frequency asked for", () => {
    const x = tone(LEFT_RIGHT_HZ, 1, RATE);
    expect(x.length).toBe(RATE);
    expect(db(peak(x))).toBeCloseTo(TEST_LEVEL_DBFS, 2);
    const mid = amplitude(x, LEFT_RIGHT_HZ, RATE / 4, (3 * RATE) / 4);
    expect(db(mid)).toBeCloseTo(TEST_LEVEL_DBFS, 1);
    expect(amplitude(x, LEFT_RIGHT_HZ * 2, RATE / 4, (3 * RATE) / 4)).toBeLessThan(1e-4);
  });

  it("starts and ends at zero over 20 ms raised-cosine edges, with no click", () => {
    const x = tone(1000, 0.5, RATE);
    const edge = EDGE_SECONDS * RATE;
    expect(x[0]).toBe(0);
    expect(Math.abs(x[x.length - 1])).toBeLessThan(1e-6);
    // The envelope rises monotonically over the edge and is flat after it.
    for (let i = 1; i <= edge; i++) expect(edgeGain(i, x.length, edge)).toBeGreaterThanOrEqual(edgeGain(i - 1, x.length, edge));
    expect(edgeGain(edge, x.length, edge)).toBe(1);
    expect(edgeGain(edge / 2, x.length, edge)).toBeCloseTo(0.5, 6);
    // 10 ms into the tone it is still at most half its level.
    expect(peak(x, 0, edge / 2)).toBeLessThanOrEqual(0.1 * 0.5 + 1e-6);
    // No step larger than the sine's own largest slope (2 pi f / rate times the peak), ends included.
    expect(largestStep(x)).toBeLessThanOrEqual(0.1 * ((2 * Math.PI * 1000) / RATE) * 1.001);
  });

  it("refuses a tone that cannot be made, with a clear error", () => {
    expect(() => tone(30000, 1, RATE)).toThrow(/Cannot build a 30000 Hz tone/);
    expect(() => tone(500, 0, RATE)).toThrow(RangeError);
    expect(() => tone(500, 1, Number.NaN)).toThrow(RangeError);
  });
});

describe("left and right", () => {
  it("the left tone is in the left channel only: the right is exact silence", () => {
    const s = oneSideTone("left", RATE);
    expect(s.left.length).toBe(LEFT_RIGHT_SECONDS * RATE);
    expect(db(peak(s.left))).toBeCloseTo(TEST_LEVEL_DBFS, 2);
    expect(s.right.every((v) => v === 0)).toBe(true);
    expect(s.parts).toEqual([{ start: 0, frames: LEFT_RIGHT_SECONDS * RATE }]);
  });

  it("the right tone is in the right channel only", () => {
    const s = oneSideTone("right", RATE);
    expect(s.left.every((v) => v === 0)).toBe(true);
    expect(db(amplitude(s.right, LEFT_RIGHT_HZ, RATE / 4, (3 * RATE) / 4))).toBeCloseTo(TEST_LEVEL_DBFS, 1);
  });
});

describe("mono fold", () => {
  const s = monoFoldTest(RATE);

  it("plays two parts separated by the gap", () => {
    const n = MONO_FOLD_SECONDS * RATE;
    expect(s.parts).toEqual([{ start: 0, frames: n }, { start: n + GAP_SECONDS * RATE, frames: n }]);
    expect(s.left.length).toBe(2 * n + GAP_SECONDS * RATE);
  });

  it("tone 1 is the same in both ears and survives a mono fold at full level", () => {
    const { from, to } = part(s, 0);
    expect(s.right.subarray(from, to)).toEqual(s.left.subarray(from, to));
    expect(db(peak(monoSum(s), from, to))).toBeCloseTo(TEST_LEVEL_DBFS, 2);
  });

  it("tone 2 is in antiphase (R = -L), equally loud in each ear, and sums to exactly zero in mono", () => {
    const { from, to } = part(s, 1);
    expect(s.right.subarray(from, to)).toEqual(s.left.subarray(from, to).map((v) => -v));
    expect(db(amplitude(s.left, MONO_FOLD_HZ, from, to))).toBeCloseTo(db(amplitude(s.right, MONO_FOLD_HZ, from, to)), 6);
    expect(peak(monoSum(s), from, to)).toBe(0);
  });
});

describe("polarity", () => {
  const s = polarityTest(RATE);

  it("is a low tone: in phase first, then with the right ear inverted", () => {
    const a = part(s, 0);
    const b = part(s, 1);
    expect(b.to - b.from).toBe(POLARITY_SECONDS * RATE);
    expect(POLARITY_HZ).toBeLessThanOrEqual(100);
    expect(db(amplitude(s.left, POLARITY_HZ, a.from, a.to))).toBeCloseTo(TEST_LEVEL_DBFS, 0);
    // The correlation of the ears: +1 in tone 1, -1 in tone 2.
    const corr = (from: number, to: number) => {
      let lr = 0, ll = 0, rr = 0;
      for (let i = from; i < to; i++) {
        lr += s.left[i] * s.right[i];
        ll += s.left[i] ** 2;
        rr += s.right[i] ** 2;
      }
      return lr / Math.sqrt(ll * rr);
    };
    expect(corr(a.from, a.to)).toBeCloseTo(1, 9);
    expect(corr(b.from, b.to)).toBeCloseTo(-1, 9);
  });

  it("has silence between the tones and click-free edges in both ears", () => {
    const a = part(s, 0);
    const b = part(s, 1);
    expect(peak(s.left, a.to, b.from)).toBe(0);
    expect(largestStep(s.left)).toBeLessThanOrEqual(0.1 * ((2 * Math.PI * POLARITY_HZ) / RATE) * 1.001);
    expect(largestStep(s.right)).toBeLessThanOrEqual(0.1 * ((2 * Math.PI * POLARITY_HZ) / RATE) * 1.001);
  });
});

describe("level matching", () => {
  const s = alternatingTone(RATE);

  it("alternates: left alone, then right alone, each at -20 dBFS, and loops without a click", () => {
    const a = part(s, 0);
    const b = part(s, 1);
    expect(a.to - a.from).toBe(BALANCE_TURN_SECONDS * RATE);
    expect(peak(s.right, a.from, a.to)).toBe(0);
    expect(peak(s.left, b.from, b.to)).toBe(0);
    expect(db(amplitude(s.left, BALANCE_HZ, a.from + 2000, a.to - 2000))).toBeCloseTo(TEST_LEVEL_DBFS, 1);
    expect(db(amplitude(s.right, BALANCE_HZ, b.from + 2000, b.to - 2000))).toBeCloseTo(TEST_LEVEL_DBFS, 1);
    // Ends in the same gap it has in the middle, so the loop's rhythm is even; both ends silent.
    expect(s.left.length - b.to).toBe(b.from - a.to);
    expect(s.left[0]).toBe(0);
    expect(Math.abs(s.right[s.right.length - 1])).toBe(0);
  });

  it("with a balance, plays what playback plays: levels.ts's gains, the other ear untouched", () => {
    const b3 = withBalance(s, 3);
    const a = part(s, 0);
    const b = part(s, 1);
    expect(db(peak(b3.left, a.from, a.to))).toBeCloseTo(TEST_LEVEL_DBFS - 3, 2);
    expect(db(peak(b3.right, b.from, b.to))).toBeCloseTo(TEST_LEVEL_DBFS, 2);
    expect(balanceGains(3)).toEqual({ left: 10 ** (-3 / 20), right: 1 });

    const right6 = withBalance(s, -6);
    expect(db(peak(right6.right, b.from, b.to))).toBeCloseTo(TEST_LEVEL_DBFS - 6, 2);
    expect(db(peak(right6.left, a.from, a.to))).toBeCloseTo(TEST_LEVEL_DBFS, 2);

    // Beyond the range it stops at BALANCE_MAX_DB, never louder than the signal.
    const far = withBalance(s, 40);
    expect(db(peak(far.left))).toBeCloseTo(TEST_LEVEL_DBFS - BALANCE_MAX_DB, 2);
  });
});

describe("at other sample rates", () => {
  it("44.1 kHz keeps the lengths in seconds and the silence on the other side", () => {
    const s = oneSideTone("left", 44100);
    expect(s.left.length).toBe(44100 * LEFT_RIGHT_SECONDS);
    expect(s.right.every((v) => v === 0)).toBe(true);
    const m = monoFoldTest(44100);
    expect(m.parts[1].start).toBe(Math.round((MONO_FOLD_SECONDS + GAP_SECONDS) * 44100));
  });
});
