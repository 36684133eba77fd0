// The UI rows (bench/ui-rows.ts; bench/ui.ts measures them in Chromium): frames per second from
// a display's frame counter, the main thread's busy share from Performance.getMetrics, the
// targets judged as shown, the rows valid in the results schema, printed with their target and
// verdict, and never gating in --compare.

import { describe, expect, it } from "vitest";
import { compareResults } from "../../../bench/compare";
import { fmtRelative, fmtRepeats, fmtTarget, fmtValue } from "../../../bench/format";
import { htmlReport, targetValue } from "../../../bench/report-html";
import { markdownReport } from "../../../bench/report-md";
import { benchResultSchema, type BenchResult } from "../../../bench/schema";
import {
  busyPercent, cpuPercent, framesPerSecond, meetsBusy, meetsFps, metric, uiRows, worstFramesPerSecond, type UiWindow,
} from "../../../bench/ui-rows";
import { fixture } from "./fixture";

const metrics = (timestamp: number, taskDuration: number, threadTime = 0) => [
  { name: "Timestamp", value: timestamp },
  { name: "TaskDuration", value: taskDuration },
  { name: "ThreadTime", value: threadTime },
  { name: "ScriptDuration", value: 0.1 },
];

const uiWindow = (o: Partial<UiWindow> = {}): UiWindow => ({
  cpuThrottlingRate: 4,
  windowSeconds: 20.004,
  profile: "performance",
  waveform: { fps: 24, frames: 480, worstSecondFps: 23 },
  spectrogram: { fps: 23.97, frames: 479, worstSecondFps: 22 },
  busyPercent: 31.4,
  mainThreadCpuPercent: 9.5,
  ...o,
});
const SETUP = { viewport: "390x844 @3x", effects: "reverb, chorus, binaural, tremolo" };

function withUi(result: BenchResult, w: UiWindow[]): BenchResult {
  return { ...result, rows: [...result.rows, ...w.flatMap((x) => uiRows(x, SETUP))] };
}

describe("frames per second from a display's counter", () => {
  it("divides the frames drawn by the time between the first and last frame's timestamps", () => {
    expect(framesPerSecond({ frames: 10, lastAt: 1000 }, { frames: 34, lastAt: 2000 })).toBe(24);
    expect(framesPerSecond({ frames: 0, lastAt: 0 }, { frames: 480, lastAt: 20_000 })).toBe(24);
  });

  it("is 0 when the display drew nothing (stopped, hidden, off screen)", () => {
    expect(framesPerSecond({ frames: 7, lastAt: 500 }, { frames: 7, lastAt: 500 })).toBe(0);
  });

  it("finds the worst second among consecutive readings", () => {
    const readings = [
      { frames: 0, lastAt: 0 },
      { frames: 24, lastAt: 1000 },
      { frames: 42, lastAt: 2000 },
      { frames: 66, lastAt: 3000 },
    ];
    expect(worstFramesPerSecond(readings)).toBe(18);
    expect(worstFramesPerSecond(readings.slice(0, 1))).toBe(0);
  });
});

describe("main-thread busy share from Performance.getMetrics", () => {
  it("is the tasks' seconds over the wall seconds between two readings, in percent", () => {
    expect(busyPercent(metrics(100, 3), metrics(120, 11))).toBeCloseTo(40, 9);
    expect(busyPercent(metrics(5, 1), metrics(10, 1))).toBe(0);
  });

  it("and the main thread's CPU share, from ThreadTime: the time it was on a core", () => {
    expect(cpuPercent(metrics(100, 3, 1), metrics(120, 11, 3))).toBeCloseTo(10, 9);
  });

  it("says which metric is missing, and refuses readings out of order", () => {
    expect(() => metric([{ name: "Timestamp", value: 1 }], "TaskDuration")).toThrow(/no TaskDuration/);
    expect(() => busyPercent(metrics(10, 1), metrics(10, 2))).toThrow(/out of order/);
    expect(() => cpuPercent(metrics(10, 1), metrics(9, 2))).toThrow(/out of order/);
  });
});

describe("targets", () => {
  it("are judged on the figure as shown, to one decimal", () => {
    expect(meetsFps(24)).toBe(true);
    expect(meetsFps(23.96)).toBe(true); // shown as 24.0: a display at its 24 fps cap
    expect(meetsFps(23.94)).toBe(false);
    expect(meetsFps(30)).toBe(true);
    expect(meetsBusy(40.04)).toBe(true);
    expect(meetsBusy(40.06)).toBe(false);
    expect(meetsBusy(12)).toBe(true);
  });
});

describe("UI rows", () => {
  it("are three per window: each display's fps and the busy share, with their targets and verdicts", () => {
    const rows = uiRows(uiWindow(), SETUP);
    expect(rows.map((r) => r.id)).toEqual(["ui/cpu-x4/waveform-fps", "ui/cpu-x4/spectrogram-fps", "ui/cpu-x4/main-thread-busy"]);
    expect(uiRows(uiWindow({ cpuThrottlingRate: 1 }), SETUP)[2].id).toBe("ui/unthrottled/main-thread-busy");
    const [wave, spectrogram, busy] = rows;
    expect(wave).toMatchObject({ kind: "ui", unit: "fps", better: "higher", value: 24, samples: [24], target: ">= 24", yardstick: null, yardstickValue: null, relative: null });
    expect(wave.details).toMatchObject({ frames: 480, worstSecondFps: 23, cpuThrottlingRate: 4, windowSeconds: 20.004, profile: "performance", met: true });
    expect(spectrogram.details?.met).toBe(true);
    expect(busy).toMatchObject({ unit: "%", better: "lower", value: 31.4, target: "<= 40" });
    expect(busy.details?.met).toBe(true);
    // The CPU share only unthrottled: throttling keeps the thread on the CPU.
    expect(busy.details?.mainThreadCpuPercent).toBeUndefined();
    expect(uiRows(uiWindow({ cpuThrottlingRate: 1 }), SETUP)[2].details?.mainThreadCpuPercent).toBe(9.5);
    expect(uiRows(uiWindow({ busyPercent: 52 }), SETUP)[2].details?.met).toBe(false);
    expect(wave.name).toBe("waveform display, frames drawn per second, studio on a 390x844 @3x phone, CPU x4");
  });

  it("are valid in the results schema", () => {
    const r = withUi(fixture(), [uiWindow(), uiWindow({ cpuThrottlingRate: 1, busyPercent: 4 })]);
    expect(benchResultSchema.safeParse(r).success).toBe(true);
  });

  it("print their window, their target with its verdict, and no machine-independent figure", () => {
    const [wave, , busy] = uiRows(uiWindow({ windowSeconds: 5.006, busyPercent: 47.25 }), SETUP);
    expect(fmtValue(wave)).toBe("24 fps");
    expect(fmtRepeats(wave)).toBe("one 5 s window");
    expect(fmtRelative(wave.relative, wave)).toBe("absolute (never gates)");
    expect(fmtTarget(wave)).toBe(">= 24 fps: met");
    expect(fmtTarget(busy)).toBe("<= 40 %: MISSED");
    // Other rows keep their target as written.
    expect(fmtTarget(fixture().rows[2])).toBe("relative >= 10");
  });

  it("show in the Markdown summary with their verdict, and in the HTML against their target", () => {
    const r = withUi(fixture(), [uiWindow({ busyPercent: 47.25 })]);
    const md = markdownReport(r, null);
    expect(md).toContain("| main thread busy, studio on a 390x844 @3x phone, CPU x4 | 47.3 % | one 20 s window | absolute (never gates); target <= 40 %: MISSED |");
    const html = htmlReport(r, null);
    expect(html).toContain('data-row-id="ui/cpu-x4/waveform-fps"');
    expect(html).toContain("target &gt;= 24 fps: met");
    expect(targetValue(">= 24")).toBe(24);
    expect(targetValue("<= 40")).toBe(40);
    expect(targetValue("relative >= 10")).toBeNull();
  });

  it("never gate in --compare: a slower UI row is reported, not failed; new ones are listed", () => {
    const baseline = withUi(fixture(), [uiWindow()]);
    const slower = withUi(fixture(), [uiWindow({ waveform: { fps: 12, frames: 240, worstSecondFps: 10 }, busyPercent: 80 })]);
    const c = compareResults(slower, baseline, 10);
    expect(c.failures).toEqual([]);
    const wave = c.verdicts.find((v) => v.id === "ui/cpu-x4/waveform-fps")!;
    expect(wave).toMatchObject({ status: "slower-not-gating", gates: false, baseline: 24, current: 12 });
    expect(wave.changePercent).toBeCloseTo(-50, 6);
    expect(c.verdicts.find((v) => v.id === "ui/cpu-x4/main-thread-busy")).toMatchObject({ status: "slower-not-gating", gates: false });
    expect(c.verdicts.find((v) => v.id === "ui/cpu-x4/spectrogram-fps")).toMatchObject({ status: "ok", gates: false });
    const fresh = compareResults(withUi(fixture(), [uiWindow()]), fixture(), 10);
    expect(fresh.failures).toEqual([]);
    expect(fresh.verdicts.find((v) => v.id === "ui/cpu-x4/waveform-fps")).toMatchObject({ status: "new", current: 24 });
  });
});
