// The timeline axis geometry (web/timeline/axis.ts): time and log-frequency mapping, ticks, and
// the channel lines drawn from the model's evaluation.

import { describe, expect, it } from "vitest";
import { defaultAudioState } from "../../../../dsp/host/schema/state";
import { resolveTimeline, type Timeline } from "../../../../dsp/host/schema/timeline";
import {
  axisEnd, channelRuns, dragSnap, plotWidthForSteps, MAX_AXIS_WIDTH_PX, MIN_HANDLE_GAP_PX, formatHz, frequencyRange, frequencyTicks, frequencyToY, runsPath, timeTicks, timeToX, xToTime,
  yToFrequency, RAMP_SAMPLES, type FrequencyScale, type TimeScale,
} from "../../../../web/timeline/axis";

const ts: TimeScale = { end: 60, x0: 50, width: 600 };
const fs: FrequencyScale = { lo: 20, hi: 20000, y0: 10, height: 300 };

describe("time axis", () => {
  it("runs from 0 to the later of the duration and the last step", () => {
    expect(axisEnd(30, undefined)).toBe(30);
    expect(axisEnd(30, { steps: [{ at: 0, ramp: "hold" }, { at: 2400, ramp: "linear" }] })).toBe(2400);
    expect(axisEnd(3600, { steps: [{ at: 60, ramp: "linear" }] })).toBe(3600);
  });

  it("maps time to x linearly and back, clamped to the axis", () => {
    expect(timeToX(0, ts)).toBe(50);
    expect(timeToX(30, ts)).toBe(350);
    expect(timeToX(60, ts)).toBe(650);
    expect(timeToX(90, ts)).toBe(650);
    expect(xToTime(350, ts)).toBe(30);
    expect(xToTime(0, ts)).toBe(0);
    expect(xToTime(9999, ts)).toBe(60);
    for (const t of [0, 7.5, 42, 60]) expect(xToTime(timeToX(t, ts), ts)).toBeCloseTo(t, 9);
  });

  it("grows the plot so steps at different times stay a handle apart", () => {
    expect(plotWidthForSteps([0, 20], 320)).toBe(448); // 28 px for 20 s of 320
    expect(plotWidthForSteps([0, 20, 20, 300], 320)).toBe(448); // same-time steps do not count
    expect(plotWidthForSteps([0], 320)).toBe(0);
    expect(plotWidthForSteps([0, 0.5], 43200)).toBe(MAX_AXIS_WIDTH_PX);
    expect((plotWidthForSteps([0, 20], 320) * 20) / 320).toBe(MIN_HANDLE_GAP_PX);
  });

  it("snaps a dragged step to whole seconds, coarser when a pixel is longer", () => {
    expect(dragSnap(ts)).toBe(1);
    expect(dragSnap({ end: 2400, x0: 40, width: 300 })).toBe(10);
    expect(dragSnap({ end: 43200, x0: 40, width: 300 })).toBe(300);
  });

  it("puts ticks on readable steps at least the minimum gap apart", () => {
    expect(timeTicks(ts, 64)).toEqual([0, 10, 20, 30, 40, 50, 60]);
    const phone = timeTicks({ end: 2400, x0: 40, width: 300 }, 64);
    expect(phone).toEqual([0, 600, 1200, 1800, 2400]);
    const twelve = timeTicks({ end: 43200, x0: 40, width: 1000 }, 64);
    expect(twelve[1] - twelve[0]).toBe(3600);
    for (const list of [phone, twelve]) expect(list.length).toBeLessThanOrEqual(Math.floor(1000 / 64) + 1);
  });
});

describe("frequency axis", () => {
  it("is logarithmic: every octave and decade has the same height", () => {
    const y = (f: number) => frequencyToY(f, fs);
    expect(y(20)).toBe(310);
    expect(y(20000)).toBe(10);
    expect(y(200) - y(2000)).toBeCloseTo(100, 9);
    expect(y(20) - y(200)).toBeCloseTo(100, 9);
    expect(y(100) - y(200)).toBeCloseTo(y(5000) - y(10000), 9);
    expect(y(5)).toBe(310); // below the range: on the floor
    for (const f of [20, 440, 14, 20000].filter((v) => v >= 20)) expect(yToFrequency(y(f), fs)).toBeCloseTo(f, 6);
  });

  it("fits nice bounds around the lines, at least two octaves, within 1 Hz..20 kHz", () => {
    expect(frequencyRange([200, 800])).toEqual({ lo: 100, hi: 1000 });
    expect(frequencyRange([20, 20000])).toEqual({ lo: 10, hi: 20000 });
    const one = frequencyRange([432]);
    expect(one.hi / one.lo).toBeGreaterThanOrEqual(4);
    expect(one.lo).toBeLessThan(432);
    expect(one.hi).toBeGreaterThan(432);
    expect(frequencyRange([0.5, 2])).toEqual({ lo: 1, hi: 5 }); // the floor is 1 Hz
    expect(frequencyRange([])).toEqual({ lo: 100, hi: 1000 });
  });

  it("ticks on 1-2-5, thinned to decades when the plot is short", () => {
    expect(frequencyTicks({ lo: 100, hi: 1000, y0: 0, height: 200 })).toEqual([100, 200, 500, 1000]);
    expect(frequencyTicks({ ...fs, height: 300 })).toEqual([20, 50, 100, 200, 500, 1000, 2000, 5000, 10000, 20000]);
    expect(frequencyTicks({ ...fs, height: 80 })).toEqual([100, 1000, 10000]);
    expect([20, 440, 1000, 1500, 20000].map(formatHz)).toEqual(["20 Hz", "440 Hz", "1 kHz", "1.5 kHz", "20 kHz"]);
  });
});

describe("channel lines", () => {
  const base = defaultAudioState();
  base.channels = base.channels.map((c) => (c.id === 1 ? c : { ...c, enabled: false, frequency: 0 }));

  it("draws a linear ramp 200 -> 800 Hz rising through every sample, then holds to the end", () => {
    const t: Timeline = { steps: [{ at: 0, ramp: "hold", channels: [{ id: 1, frequency: 200 }] }, { at: 6, ramp: "linear", channels: [{ id: 1, frequency: 800 }] }] };
    const runs = channelRuns(resolveTimeline(base, t), 30);
    expect(runs[1]).toEqual([]);
    expect(runs[0]).toHaveLength(1);
    const line = runs[0][0];
    expect(line[0]).toEqual({ t: 0, f: 200 });
    expect(line.at(-1)).toEqual({ t: 30, f: 800 });
    const ramp = line.filter((p) => p.t <= 6);
    expect(ramp.length).toBe(RAMP_SAMPLES + 1);
    for (let i = 1; i < ramp.length; i++) expect(ramp[i].f).toBeGreaterThan(ramp[i - 1].f);
    expect(line.find((p) => p.t === 3)!.f).toBe(500);
  });

  it("draws an exponential ramp with its curve (the octave midpoint at half time)", () => {
    const t: Timeline = { steps: [{ at: 0, ramp: "hold", channels: [{ id: 1, frequency: 20 }] }, { at: 64, ramp: "exponential", channels: [{ id: 1, frequency: 20000 }] }] };
    const line = channelRuns(resolveTimeline(base, t), 64)[0][0];
    expect(line.find((p) => p.t === 32)!.f).toBeCloseTo(Math.sqrt(20 * 20000), 6);
  });

  it("jumps straight at a hold step and leaves a gap where a channel is off", () => {
    const t: Timeline = {
      steps: [
        { at: 10, ramp: "hold", channels: [{ id: 1, frequency: 300 }] },
        { at: 20, ramp: "hold", channels: [{ id: 1, enabled: false }] },
        { at: 25, ramp: "hold", channels: [{ id: 1, enabled: true, frequency: 100 }] },
      ],
    };
    const runs = channelRuns(resolveTimeline(base, t), 30)[0];
    expect(runs).toEqual([
      [{ t: 0, f: 432 }, { t: 10, f: 432 }, { t: 10, f: 300 }, { t: 20, f: 300 }],
      [{ t: 25, f: 100 }, { t: 30, f: 100 }],
    ]);
    const path = runsPath(runs, ts, fs);
    expect(path.match(/M/g)).toHaveLength(2);
    expect(path.startsWith(`M50.0 ${frequencyToY(432, fs).toFixed(1)}`)).toBe(true);
  });
});
