// The arithmetic of the UI rows (bench/ui.ts drives the browser): frames per second from two
// readings of a display's frame counter, the main thread's busy share from two readings of
// Chromium's performance metrics, the targets and the schema rows. Pure, so it is unit-tested.

import { makeRow } from "./measure";
import type { BenchRow } from "./schema";

/** The low-core phone targets: each display draws at least this many frames a second... */
export const TARGET_FPS = 24;
/** ...while the page's main thread is busy at most this share of the wall time (percent). */
export const TARGET_BUSY_PERCENT = 40;

/** One reading of a display's counter (web/displays/display-frames.ts). */
export interface FrameReading {
  frames: number;
  /** rAF timestamp of the last frame drawn, ms. */
  lastAt: number;
}

/** Frames per second between two readings, timed by the frames' own rAF timestamps (frames on a
 *  60 Hz clock, so a window's edges cost no rounding); 0 when nothing, or one frame, was drawn. */
export function framesPerSecond(before: FrameReading, after: FrameReading): number {
  const frames = after.frames - before.frames;
  const ms = after.lastAt - before.lastAt;
  return frames > 0 && ms > 0 ? (frames / ms) * 1000 : 0;
}

/** The lowest frame rate over consecutive readings (e.g. one a second): the worst stutter. */
export function worstFramesPerSecond(readings: readonly FrameReading[]): number {
  let worst = Infinity;
  for (let i = 1; i < readings.length; i++) worst = Math.min(worst, framesPerSecond(readings[i - 1], readings[i]));
  return Number.isFinite(worst) ? worst : 0;
}

/** What the DevTools protocol's Performance.getMetrics answers. */
export type Metrics = readonly { name: string; value: number }[];

export function metric(metrics: Metrics, name: string): number {
  const m = metrics.find((x) => x.name === name);
  if (!m) throw new Error(`Performance.getMetrics gave no ${name}`);
  return m.value;
}

/** Share (percent) of the wall time the renderer's main thread spent running tasks between two
 *  Performance.getMetrics answers: TaskDuration (seconds of tasks, cumulative) over Timestamp
 *  (seconds, the same clock), both read in the same call. Under CPU throttling the tasks' time
 *  is the throttled time, as on the slower device. */
export function busyPercent(before: Metrics, after: Metrics): number {
  const wall = metric(after, "Timestamp") - metric(before, "Timestamp");
  if (!(wall > 0)) throw new Error("Performance metrics taken out of order");
  return ((metric(after, "TaskDuration") - metric(before, "TaskDuration")) / wall) * 100;
}

/** Share (percent) of the wall time the main thread was on a CPU (ThreadTime, seconds of CPU
 *  time) between two Performance.getMetrics answers. Unthrottled, it leaves out the time a task
 *  waited for a core while another process had it: a figure for reading a busy share inflated by
 *  a loaded machine, not a target. Throttled it means nothing (Chromium's throttling keeps the
 *  thread on the CPU: x4 measured more CPU time than task time), so only the unthrottled row
 *  keeps it. */
export function cpuPercent(before: Metrics, after: Metrics): number {
  const wall = metric(after, "Timestamp") - metric(before, "Timestamp");
  if (!(wall > 0)) throw new Error("Performance metrics taken out of order");
  return ((metric(after, "ThreadTime") - metric(before, "ThreadTime")) / wall) * 100;
}

/** Figures are shown with one decimal, and judged as shown: a display drawing at its 24 fps cap
 *  measures 23.98 over a window whose last frame fell just before its end. */
const shown = (x: number) => Math.round(x * 10) / 10;
export const meetsFps = (fps: number) => shown(fps) >= TARGET_FPS;
export const meetsBusy = (percent: number) => shown(percent) <= TARGET_BUSY_PERCENT;

/** One measured window of the studio playing: each display's frame rate and the busy share. */
export interface UiWindow {
  /** Emulation.setCPUThrottlingRate's rate (1 = unthrottled). */
  cpuThrottlingRate: number;
  windowSeconds: number;
  /** The display profile the page chose (web/state/performance-profile.ts). */
  profile: string;
  waveform: { fps: number; frames: number; worstSecondFps: number };
  spectrogram: { fps: number; frames: number; worstSecondFps: number };
  busyPercent: number;
  /** cpuPercent over the window. */
  mainThreadCpuPercent: number;
}

/** Where and how the studio ran, the same for every window (kept in each row's details). */
export interface UiSetup {
  viewport: string;
  effects: string;
}

const rateLabel = (rate: number) => (rate === 1 ? "unthrottled" : `CPU x${rate}`);
export const uiRowId = (rate: number, what: string) => `ui/${rate === 1 ? "unthrottled" : `cpu-x${rate}`}/${what}`;

/** The three rows of one window: each display's fps and the main thread's busy share. They carry
 *  no yardstick (`relative` null): absolute figures, shown against their targets, never gating
 *  in --compare (bench/SCHEMA.md). `met` in their details says whether the target holds. */
export function uiRows(w: UiWindow, setup: UiSetup): BenchRow[] {
  const common = { kind: "ui" as const, yardstick: null };
  const where = `studio on a ${setup.viewport} phone, ${rateLabel(w.cpuThrottlingRate)}`;
  const context = { cpuThrottlingRate: w.cpuThrottlingRate, windowSeconds: w.windowSeconds, profile: w.profile, viewport: setup.viewport, effects: setup.effects };
  const fpsRow = (display: "waveform" | "spectrogram") =>
    makeRow(
      {
        ...common,
        id: uiRowId(w.cpuThrottlingRate, `${display}-fps`),
        name: `${display} display, frames drawn per second, ${where}`,
        unit: "fps",
        better: "higher",
        target: `>= ${TARGET_FPS}`,
        details: { ...context, frames: w[display].frames, worstSecondFps: w[display].worstSecondFps, met: meetsFps(w[display].fps) },
      },
      [w[display].fps],
      null,
    );
  return [
    fpsRow("waveform"),
    fpsRow("spectrogram"),
    makeRow(
      {
        ...common,
        id: uiRowId(w.cpuThrottlingRate, "main-thread-busy"),
        name: `main thread busy, ${where}`,
        unit: "%",
        better: "lower",
        target: `<= ${TARGET_BUSY_PERCENT}`,
        details: { ...context, ...(w.cpuThrottlingRate === 1 ? { mainThreadCpuPercent: w.mainThreadCpuPercent } : {}), met: meetsBusy(w.busyPercent) },
      },
      [w.busyPercent],
      null,
    ),
  ];
}
