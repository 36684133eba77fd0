// The timeline axis as pure geometry: time <-> x (linear, 0 to the session's end), frequency <-> y
// (logarithmic: an octave is the same height anywhere from 20 Hz to 20 kHz), tick choice for both,
// and the four channels' frequency lines sampled from the model's own evaluation, so a ramp is
// drawn with the curve the engine plays (dsp/host/schema/timeline.ts evaluateTimeline).

import { MAX_FREQUENCY_HZ } from "../../dsp/host/model/limits";
import { evaluateTimeline, pitchTrack, scheduleEnd, type ResolvedStep, type Timeline } from "../../dsp/host/schema/timeline";
import type { ChannelState } from "../../dsp/host/schema/state";

export interface TimeScale {
  /** Session end in seconds (the axis runs from 0). */
  end: number;
  /** Left edge of the plot and its width, in px. */
  x0: number;
  width: number;
}

export interface FrequencyScale {
  lo: number;
  hi: number;
  /** Top edge of the plot and its height, in px. */
  y0: number;
  height: number;
}

/** The axis runs from 0 to the later of the session's duration and its last step (at least 1 s). */
export function axisEnd(duration: number, timeline: Timeline | undefined): number {
  return Math.max(1, duration, timeline ? scheduleEnd(timeline) : 0);
}

export function timeToX(t: number, s: TimeScale): number {
  return s.x0 + (Math.min(s.end, Math.max(0, t)) / s.end) * s.width;
}

/** The time under pixel x, clamped to the axis. */
export function xToTime(x: number, s: TimeScale): number {
  return Math.min(s.end, Math.max(0, ((x - s.x0) / s.width) * s.end));
}

/** Tick steps a person reads easily: seconds, then minutes, then hours. */
const TIME_STEPS = [1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 10800, 21600];

/** Tick times from 0 to the end, at least `minGapPx` apart. */
export function timeTicks(s: TimeScale, minGapPx = 64): number[] {
  const most = Math.max(1, Math.floor(s.width / minGapPx));
  const step = TIME_STEPS.find((d) => s.end / d <= most) ?? Math.ceil(s.end / most / 3600) * 3600;
  const out: number[] = [];
  for (let t = 0; t <= s.end + 1e-9; t += step) out.push(t);
  return out;
}

/** Lowest frequency the axis shows (a channel below it is drawn on the axis's floor). */
export const MIN_AXIS_HZ = 1;
/** The axis spans at least this ratio (two octaves), so one steady tone is not a full-height line. */
const MIN_SPAN = 4;
/** Room above and below the highest and lowest line. */
const MARGIN = 1.25;

/** 1, 2, 5, 10, 20, 50, ...: the nice value at or below (or above) f. */
function nice(f: number, up: boolean): number {
  const decade = Math.pow(10, Math.floor(Math.log10(f)));
  const steps = [1, 2, 5, 10];
  if (up) return decade * (steps.find((m) => decade * m >= f - 1e-9) ?? 10);
  return decade * ([...steps].reverse().find((m) => decade * m <= f + 1e-9) ?? 1);
}

/** The frequency range for the sounding frequencies drawn: nice bounds around them with some room,
 *  at least two octaves, within MIN_AXIS_HZ..MAX_FREQUENCY_HZ; 100 Hz-1 kHz when nothing sounds. */
export function frequencyRange(frequencies: readonly number[]): { lo: number; hi: number } {
  const f = frequencies.filter((v) => v > 0 && Number.isFinite(v));
  if (f.length === 0) return { lo: 100, hi: 1000 };
  let lo = Math.max(MIN_AXIS_HZ, nice(Math.min(...f) / MARGIN, false));
  let hi = Math.min(MAX_FREQUENCY_HZ, nice(Math.max(...f) * MARGIN, true));
  if (hi / lo < MIN_SPAN) {
    const centre = Math.sqrt(lo * hi);
    lo = Math.max(MIN_AXIS_HZ, nice(centre / 2, false));
    hi = Math.min(MAX_FREQUENCY_HZ, nice(lo * MIN_SPAN, true));
    if (hi / lo < MIN_SPAN) lo = Math.max(MIN_AXIS_HZ, nice(hi / MIN_SPAN, false));
  }
  return { lo, hi };
}

export function frequencyToY(f: number, s: FrequencyScale): number {
  const v = Math.min(s.hi, Math.max(s.lo, f));
  const u = Math.log(v / s.lo) / Math.log(s.hi / s.lo);
  return s.y0 + (1 - u) * s.height;
}

export function yToFrequency(y: number, s: FrequencyScale): number {
  const u = 1 - Math.min(1, Math.max(0, (y - s.y0) / s.height));
  return s.lo * Math.pow(s.hi / s.lo, u);
}

/** 1-2-5 ticks inside the range, thinned to 1-per-decade (then every other decade) to stay
 *  `minGapPx` apart. */
export function frequencyTicks(s: FrequencyScale, minGapPx = 18): number[] {
  const all: number[] = [];
  for (let d = Math.pow(10, Math.floor(Math.log10(s.lo))); d <= s.hi; d *= 10) {
    for (const m of [1, 2, 5]) {
      const f = d * m;
      if (f >= s.lo - 1e-9 && f <= s.hi + 1e-9) all.push(f);
    }
  }
  const gapOk = (list: number[]) => list.every((f, i) => i === 0 || frequencyToY(list[i - 1], s) - frequencyToY(f, s) >= minGapPx);
  if (gapOk(all)) return all;
  const decades = all.filter((f) => Math.abs(Math.log10(f) - Math.round(Math.log10(f))) < 1e-9);
  if (gapOk(decades)) return decades;
  return decades.filter((_, i) => i % 2 === 0);
}

/** "20 Hz", "500 Hz", "2 kHz", "1.5 kHz". */
export function formatHz(f: number): string {
  if (f >= 1000) return `${Number((f / 1000).toFixed(2))} kHz`;
  return `${Number(f.toFixed(2))} Hz`;
}

/** A point of a channel's line: time (s) and frequency (Hz). */
export interface LinePoint {
  t: number;
  f: number;
}

/** Samples drawn along each ramp (enough for an eased or exponential curve to look smooth). */
export const RAMP_SAMPLES = 32;

const audible = (c: ChannelState): boolean => c.enabled && c.frequency > 0 && c.volume > 0;

/** Each channel's line as runs of points where it sounds (a gap where it is off or silent).
 *  Holds are flat and jump straight up or down at the next step; ramps follow their curve. */
export function channelRuns(steps: readonly ResolvedStep[], end: number): LinePoint[][][] {
  const pitches = pitchTrack(steps);
  const samples: { t: number; channels: ChannelState[] }[] = [];
  const last = steps.length - 1;
  for (let i = 0; i < steps.length; i++) {
    const a = steps[i];
    const bAt = i < last ? steps[i + 1].at : Math.max(end, a.at);
    const ramp = i < last ? steps[i + 1].ramp : "hold";
    if (ramp === "hold" || bAt <= a.at) {
      samples.push({ t: a.at, channels: a.channels }, { t: bAt, channels: a.channels });
    } else {
      for (let k = 0; k < RAMP_SAMPLES; k++) {
        const t = a.at + ((bAt - a.at) * k) / RAMP_SAMPLES;
        samples.push({ t, channels: evaluateTimeline(steps, t, pitches).channels });
      }
    }
  }
  return [0, 1, 2, 3].map((ch) => {
    const runs: LinePoint[][] = [];
    let run: LinePoint[] | null = null;
    for (const s of samples) {
      const c = s.channels[ch];
      if (c && audible(c)) {
        run ??= [];
        run.push({ t: s.t, f: c.frequency });
        if (run.length === 1) runs.push(run);
      } else {
        run = null;
      }
    }
    return runs;
  });
}

/** An SVG path ("M x y L x y ...") for runs of points on the given scales. */
export function runsPath(runs: readonly LinePoint[][], ts: TimeScale, fs: FrequencyScale): string {
  return runs
    .filter((r) => r.length > 0)
    .map((r) => r.map((p, i) => `${i === 0 ? "M" : "L"}${timeToX(p.t, ts).toFixed(1)} ${frequencyToY(p.f, fs).toFixed(1)}`).join(" "))
    .join(" ");
}

/** Times a dragged handle snaps to: whole seconds, coarser when a pixel covers more than that. */
const SNAPS = [1, 5, 10, 15, 30, 60, 300, 600];

/** The drag snap for a scale: the finest of SNAPS at least one pixel wide. */
export function dragSnap(s: TimeScale): number {
  const perPx = s.end / s.width;
  return SNAPS.find((d) => d >= perPx) ?? SNAPS[SNAPS.length - 1];
}

/** Closest two step handles may come (px): closer, the axis grows and its frame scrolls. */
export const MIN_HANDLE_GAP_PX = 28;
/** The widest the axis grows for close steps (px). */
export const MAX_AXIS_WIDTH_PX = 4800;

/** The plot width (px) that keeps steps at different times MIN_HANDLE_GAP_PX apart on an axis
 *  ending at `end`, at most MAX_AXIS_WIDTH_PX; 0 when no two steps are at different times. */
export function plotWidthForSteps(times: readonly number[], end: number): number {
  let gap = Infinity;
  for (let i = 1; i < times.length; i++) {
    const d = times[i] - times[i - 1];
    if (d > 0 && d < gap) gap = d;
  }
  if (!Number.isFinite(gap)) return 0;
  return Math.min(MAX_AXIS_WIDTH_PX, Math.ceil((MIN_HANDLE_GAP_PX * end) / gap));
}
