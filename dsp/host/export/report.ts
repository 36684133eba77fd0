// The export report: what was verified on the rendered audio of an export. A streaming collector
// that the export feeds with every rendered float block while it renders (WavRenderer's observer),
// keeping bounded memory whatever the duration: three analysis windows (at most 65536 frames per
// ear each, 1.5 MB in all), a little state per step boundary and the loudness meter's 100 ms
// blocks. finish() measures and returns a plain JSON-able ExportReport; export-report-text.ts
// turns it into the text the studio shows and the CLI writes.
//
// What is checked, and how:
// - Frequencies, in windows taken from the start, the middle and the end of the sound, after the
//   fade-in and before the last stop fade, moved off step boundaries where possible. The expected
//   values come from the session's timeline at each window's centre (evaluateTimeline); with the
//   binaural beat on, the left ear sounds f - beat/2 and the right f + beat/2 (fx/binaural.ts),
//   so each ear is measured on its own and the beat is reported as right - left. The estimator
//   is spectrum.ts's (Blackman-Harris, 2x zero-padding, Gaussian interpolation): steady tones are
//   held to STEADY_TOLERANCE_HZ at the full window; a ramp's tolerance adds RAMP_TOLERANCE_SHARE of
//   how far the frequency moves during the window (a linear sweep's peak lies at the centre
//   value; an exponential or eased one leans by up to about 2 % of the sweep).
// - Clipping: samples at or beyond full scale (the engine clamps to [-1, 1], so a clipped sample
//   is exactly ±1), and the sample peak.
// - Clicks: around every step boundary, the largest sample-to-sample step, against the largest
//   just before and just after it; a click is a step over CLICK_FACTOR times the larger of those.

import { FADE_IN_DEFAULT_SECONDS } from "../schema/levels";
import { effectDef } from "../model/catalogue";
import { MAX_FREQUENCY_HZ, STEP_JUMP_SECONDS, STOP_FADE_SECONDS } from "../model/limits";
import { LoudnessMeter } from "../analysis/loudness";
import { BH_HALF_LOBE_BINS, peakIn, spectrum } from "../analysis/spectrum";
import type { AudioState } from "../schema/state";
import { evaluateTimeline, hasTimeline, pitchTrack, resolveTimeline, type ResolvedStep } from "../schema/timeline";

/** Longest analysis window (1.37 s at 48 kHz, bins of 0.73 Hz) and the shortest one tried when the
 *  sound between the fade-in, the end and the steps is shorter. */
export const MAX_WINDOW_FRAMES = 65536;
export const MIN_WINDOW_FRAMES = 8192;
/** A steady tone's tolerance at the longest window; shorter windows scale it with the bin width. */
export const STEADY_TOLERANCE_HZ = 0.1;
/** A ramp's tolerance adds this share of the frequency it sweeps during the window. */
export const RAMP_TOLERANCE_SHARE = 0.05;
/** After the fade-in, the level settles for this long before a window may start. */
const SETTLE_SECONDS = 0.1;
/** Windows keep this far from a step's time and from the end of its jump. */
const STEP_GUARD_SECONDS = 0.02;
/** A measured peak weaker than this (-100 dBFS) is no tone. */
const MIN_TONE_AMPLITUDE = 1e-5;
/** Click detection around a boundary: the region spans the step's jump and a little either
 *  side; the references are the 50 ms before and after it. */
const CLICK_MARGIN_SECONDS = 0.005;
const CLICK_REFERENCE_SECONDS = 0.05;
export const CLICK_FACTOR = 1.5;
/** Steps smaller than this (about -60 dBFS) never count as a click, whatever the references. */
export const CLICK_FLOOR = 0.001;
/** Effects that move or replace the channels' pitches: their windows are not measured. */
const PITCH_CHANGING = ["frequencyShifter", "ringMod", "shepard", "supersaw", "vocoder"] as const;

export type CheckStatus = "pass" | "fail" | "skipped";

export interface ToneCheck {
  channel: number;
  /** Which signal: one ear (binaural), or "mix" (left + right) / 2. */
  ear: "left" | "right" | "mix";
  kind: "carrier" | "beat";
  expectedHz: number;
  /** Null when not measured (skipped) or when no tone was found (fail). */
  measuredHz: number | null;
  toleranceHz: number;
  /** True when the expected frequency moves during the window. */
  ramp: boolean;
  /** The measured tone's level (dBFS of a sine's amplitude), for carriers. */
  levelDbfs?: number;
  status: CheckStatus;
  note?: string;
}

export interface ReportWindow {
  label: "start" | "middle" | "end";
  /** Seconds from the start of the file. */
  start: number;
  seconds: number;
  /** False when no place free of step boundaries was long enough: the window spans a step. */
  clearOfSteps: boolean;
  checks: ToneCheck[];
}

export interface BoundaryCheck {
  /** Index of the step in the resolved timeline (1 = the first step after the start). */
  step: number;
  at: number;
  label?: string;
  /** Largest sample-to-sample step in the region around the boundary (either ear). */
  maxStep: number;
  before: number;
  after: number;
  /** maxStep must not exceed this. */
  limit: number;
  status: CheckStatus;
}

// The decode-back section's shapes (filled in by decoded-check.ts, which holds its rules).
/** One window of the render, as the report's collector kept it. */
export interface RenderedWindow {
  label: ReportWindow["label"];
  /** First frame, from the start of the file. */
  from: number;
  left: Float32Array;
  right: Float32Array;
}

export interface DecodedToneCheck {
  window: ReportWindow["label"];
  channel: number;
  ear: "left" | "right" | "mix";
  renderedHz: number;
  renderedDbfs: number;
  decodedHz: number | null;
  decodedDbfs: number | null;
  status: CheckStatus;
  note?: string;
}

export interface DecodedCheck {
  format: string;
  decoder: string;
  lossless: boolean;
  /** False when the file could not be decoded here (the note says why): nothing was checked. */
  decodedBack: boolean;
  /** The duration the file states; null when it states none (or was not decoded). */
  durationSeconds: number | null;
  duration: CheckStatus;
  /** FLAC: the largest difference from the render, in units of the file's last bit. */
  maxDifferenceLsb?: number;
  samples?: CheckStatus;
  tones: DecodedToneCheck[];
  status: CheckStatus;
  note?: string;
}

export interface ExportReport {
  duration: number;
  sampleRate: number;
  frames: number;
  /** Largest |sample| and its level; null level for silence. */
  peak: number;
  peakDbfs: number | null;
  clippedSamples: number;
  clipping: CheckStatus;
  /** Integrated loudness (ITU-R BS.1770-4); null for silence, under 400 ms, or not measured. */
  loudnessLufs: number | null;
  analysis: { windowFrames: number; paddedFrames: number; window: string; interpolation: string; steadyToleranceHz: number; rampToleranceShare: number };
  windows: ReportWindow[];
  /** Why there are no frequency windows, when there are none. */
  windowsNote?: string;
  /** Largest sample-to-sample step inside the analysis windows (steady audio), for reference. */
  steadyMaxStep: number | null;
  boundaries: BoundaryCheck[];
  counts: Record<CheckStatus, number>;
  pass: boolean;
  /** An encoded file (FLAC, MP3, Opus) decoded back and compared with the render (decoded-check.ts). */
  decoded?: DecodedCheck;
}

export interface ReportOptions {
  sampleRate: number;
  /** Seconds of audio in the file. */
  duration: number;
  state: Pick<AudioState, "channels" | "effects" | "timeline">;
  /** The levels' fade-in at the start, skipped by the windows (default: levels.ts's default). */
  fadeIn?: number;
  /** Also measure integrated loudness. Off by default: the meter's per-sample K-weighting costs
   *  about 40 ns per frame in JavaScript, five times the whole export's render and encoding
   *  (measured: 2176x realtime without it, 446x with it, base patch in Node). */
  loudness?: boolean;
}

interface Region {
  from: number;
  to: number;
  max: number;
}

interface Boundary {
  step: number;
  at: number;
  label?: string;
  before: Region;
  around: Region;
  after: Region;
}

interface Capture {
  label: ReportWindow["label"];
  from: number;
  clear: boolean;
  left: Float32Array;
  right: Float32Array;
}

const dbfs = (v: number): number | null => (v > 0 ? 20 * Math.log10(v) : null);
const round = (v: number, digits: number): number => Math.round(v * 10 ** digits) / 10 ** digits;

/** Free stretches of [a, b) (frames) once the guarded step boundaries are taken out. */
function freeIntervals(a: number, b: number, cuts: readonly [number, number][]): [number, number][] {
  const out: [number, number][] = [];
  let lo = a;
  for (const [c0, c1] of [...cuts].sort((x, y) => x[0] - y[0])) {
    if (c0 > lo) out.push([lo, Math.min(c0, b)]);
    lo = Math.max(lo, c1);
    if (lo >= b) break;
  }
  if (lo < b) out.push([lo, b]);
  return out.filter(([x, y]) => y > x);
}

export class ExportReportCollector {
  readonly frames: number;
  readonly windowFrames: number;
  private readonly fs: number;
  private readonly steps: ResolvedStep[];
  private readonly pitches: number[][];
  private readonly captures: Capture[] = [];
  private readonly boundaries: Boundary[] = [];
  private readonly meter: LoudnessMeter | null;
  private readonly windowsNote?: string;
  private nextBoundary = 0;
  private prevL = 0;
  private prevR = 0;
  private peak = 0;
  private clipped = 0;
  private framesSeen = 0;

  constructor(private readonly options: ReportOptions) {
    const fs = options.sampleRate;
    if (!(fs > 0) || !(options.duration > 0)) throw new RangeError("The report needs a sample rate and a duration above 0");
    this.fs = fs;
    this.frames = Math.round(options.duration * fs);
    const { state } = options;
    this.steps = hasTimeline(state.timeline)
      ? resolveTimeline(state, state.timeline)
      : [{ at: 0, ramp: "hold", channels: state.channels.map((c) => ({ ...c })), effects: { ...state.effects } }];
    this.pitches = pitchTrack(this.steps);
    this.meter = options.loudness ? new LoudnessMeter(fs, 2) : null;

    // Step boundaries inside the file, each with its click regions.
    const jump = STEP_JUMP_SECONDS;
    const frame = (t: number) => Math.max(0, Math.min(this.frames, Math.round(t * fs)));
    const cuts: [number, number][] = [];
    let lastAt = -1;
    this.steps.forEach((s, i) => {
      if (i === 0 || s.at <= 0 || s.at >= options.duration || s.at === lastAt) return;
      lastAt = s.at;
      cuts.push([frame(s.at - STEP_GUARD_SECONDS), frame(s.at + jump + STEP_GUARD_SECONDS)]);
      const a0 = frame(s.at - CLICK_MARGIN_SECONDS);
      const a1 = frame(s.at + jump + CLICK_MARGIN_SECONDS);
      this.boundaries.push({
        step: i,
        at: s.at,
        ...(s.label ? { label: s.label } : {}),
        before: { from: frame(s.at - CLICK_MARGIN_SECONDS - CLICK_REFERENCE_SECONDS), to: a0, max: 0 },
        around: { from: a0, to: a1, max: 0 },
        after: { from: a1, to: frame(s.at + jump + CLICK_MARGIN_SECONDS + CLICK_REFERENCE_SECONDS), max: 0 },
      });
    });

    // Analysis windows: the longest power of two that fits a free stretch, at the start, the
    // middle and the end of the usable sound.
    const skip = (options.fadeIn ?? FADE_IN_DEFAULT_SECONDS) + SETTLE_SECONDS;
    const a = frame(skip);
    const b = frame(options.duration - STOP_FADE_SECONDS - 0.01);
    const free = freeIntervals(a, b, cuts);
    const longest = free.reduce((m, [x, y]) => Math.max(m, y - x), 0);
    let n = MAX_WINDOW_FRAMES;
    while (n > longest && n > MIN_WINDOW_FRAMES) n >>= 1;
    this.windowFrames = n;
    if (b - a < n) {
      const needed = Math.ceil((skip + n / fs + STOP_FADE_SECONDS + 0.01) * 10) / 10;
      this.windowsNote = `Too short to measure frequencies after the fade-in: that needs at least ${needed} s of audio.`;
      return;
    }
    const targets: [ReportWindow["label"], number][] = [["start", a], ["end", b - n], ["middle", Math.round((a + b - n) / 2)]];
    const chosen: Capture[] = [];
    for (const [label, want] of targets) {
      let best: number | null = null;
      for (const [x, y] of free) {
        if (y - x < n) continue;
        const p = Math.min(Math.max(want, x), y - n);
        if (best === null || Math.abs(p - want) < Math.abs(best - want)) best = p;
      }
      const from = best ?? Math.min(Math.max(want, a), b - n);
      // Short sounds: the three targets fall on much the same audio; keep distinct windows only.
      if (chosen.some((c) => Math.abs(c.from - from) < n / 2)) continue;
      chosen.push({ label, from, clear: best !== null, left: new Float32Array(n), right: new Float32Array(n) });
    }
    const order = { start: 0, middle: 1, end: 2 };
    this.captures = chosen.sort((x, y) => order[x.label] - order[y.label]);
  }

  /** Feeds the next rendered frames (planar stereo; `firstFrame` counts from the file's start).
   *  The arrays are only read during the call. */
  push(left: Float32Array, right: Float32Array, firstFrame: number): void {
    const n = Math.min(left.length, right.length);
    if (n === 0) return;
    if (firstFrame !== this.framesSeen) throw new RangeError(`Expected frame ${this.framesSeen}, got ${firstFrame}`);
    this.framesSeen += n;
    // Peak and clipping: one tight pass with four independent maxima (a single running maximum
    // is a chain of dependent compares, about twice as slow); the counting pass runs only for
    // blocks that reach full scale.
    let h0 = 0, h1 = 0, h2 = 0, h3 = 0;
    const even = n & ~1;
    for (let i = 0; i < even; i += 2) {
      h0 = Math.max(h0, Math.abs(left[i]));
      h1 = Math.max(h1, Math.abs(left[i + 1]));
      h2 = Math.max(h2, Math.abs(right[i]));
      h3 = Math.max(h3, Math.abs(right[i + 1]));
    }
    if (even < n) h0 = Math.max(h0, Math.abs(left[even]), Math.abs(right[even]));
    const peak = Math.max(h0, h1, h2, h3);
    if (peak > this.peak) this.peak = peak;
    if (peak >= 1) {
      for (let i = 0; i < n; i++) {
        if (Math.abs(left[i]) >= 1) this.clipped++;
        if (Math.abs(right[i]) >= 1) this.clipped++;
      }
    }
    this.meter?.push(left.subarray(0, n), right.subarray(0, n));
    const end = firstFrame + n;
    for (const c of this.captures) {
      const s = Math.max(c.from, firstFrame);
      const e = Math.min(c.from + c.left.length, end);
      if (e > s) {
        c.left.set(left.subarray(s - firstFrame, e - firstFrame), s - c.from);
        c.right.set(right.subarray(s - firstFrame, e - firstFrame), s - c.from);
      }
    }
    for (let k = this.nextBoundary; k < this.boundaries.length; k++) {
      const bd = this.boundaries[k];
      if (bd.before.from >= end) break;
      for (const region of [bd.before, bd.around, bd.after]) this.scanSteps(region, left, right, firstFrame, end);
      if (bd.after.to <= end && k === this.nextBoundary) this.nextBoundary++;
    }
    this.prevL = left[n - 1];
    this.prevR = right[n - 1];
  }

  private scanSteps(region: Region, left: Float32Array, right: Float32Array, first: number, end: number): void {
    const s = Math.max(region.from, first);
    const e = Math.min(region.to, end);
    let m = region.max;
    for (let f = s; f < e; f++) {
      const i = f - first;
      // A step into the file's first frame is measured from silence.
      const pl = i > 0 ? left[i - 1] : f > 0 ? this.prevL : 0;
      const pr = i > 0 ? right[i - 1] : f > 0 ? this.prevR : 0;
      m = Math.max(m, Math.abs(left[i] - pl), Math.abs(right[i] - pr));
    }
    region.max = m;
  }

  /** The rendered analysis windows (for decoding an encoded file back: decoded-check.ts). */
  renderedWindows(): readonly RenderedWindow[] {
    return this.framesSeen >= this.frames ? this.captures.map((c) => ({ label: c.label, from: c.from, left: c.left, right: c.right })) : [];
  }

  /** Measures what was collected. Call once the whole file has been pushed. */
  finish(): ExportReport {
    const fs = this.fs;
    const n = this.windowFrames;
    const steadyTol = STEADY_TOLERANCE_HZ * (MAX_WINDOW_FRAMES / n);
    const complete = this.framesSeen >= this.frames;
    const windows: ReportWindow[] = complete ? this.captures.map((c) => this.measure(c, steadyTol)) : [];
    let steady: number | null = null;
    for (const c of complete ? this.captures : []) {
      for (const x of [c.left, c.right]) {
        for (let i = 1; i < x.length; i++) steady = Math.max(steady ?? 0, Math.abs(x[i] - x[i - 1]));
      }
    }
    const boundaries: BoundaryCheck[] = this.boundaries.map((b) => {
      const limit = Math.max(CLICK_FLOOR, CLICK_FACTOR * Math.max(b.before.max, b.after.max));
      return {
        step: b.step, at: b.at, ...(b.label ? { label: b.label } : {}),
        maxStep: round(b.around.max, 6), before: round(b.before.max, 6), after: round(b.after.max, 6), limit: round(limit, 6),
        status: b.around.max <= limit ? "pass" : "fail",
      };
    });
    const peak = this.peak;
    const clipping: CheckStatus = this.clipped === 0 ? "pass" : "fail";
    const counts: Record<CheckStatus, number> = { pass: 0, fail: 0, skipped: 0 };
    for (const s of [clipping, ...boundaries.map((b) => b.status), ...windows.flatMap((w) => w.checks.map((c) => c.status))]) counts[s]++;
    const lufs = this.meter?.integrated() ?? Number.NEGATIVE_INFINITY;
    const note = !complete ? "The export did not finish: frequencies were not measured." : this.windowsNote;
    return {
      duration: this.options.duration,
      sampleRate: fs,
      frames: this.framesSeen,
      peak: round(peak, 6),
      peakDbfs: dbfs(peak) === null ? null : round(dbfs(peak)!, 2),
      clippedSamples: this.clipped,
      clipping,
      loudnessLufs: Number.isFinite(lufs) ? round(lufs, 2) : null,
      analysis: {
        windowFrames: n,
        paddedFrames: 2 * n,
        window: "4-term Blackman-Harris",
        interpolation: "parabola through the log magnitudes (Gaussian)",
        steadyToleranceHz: round(steadyTol, 4),
        rampToleranceShare: RAMP_TOLERANCE_SHARE,
      },
      windows,
      ...(note ? { windowsNote: note } : {}),
      steadyMaxStep: steady === null ? null : round(steady, 6),
      boundaries,
      counts,
      pass: counts.fail === 0 && complete,
    };
  }

  /** The expected tones of one window and what its spectrum shows. */
  private measure(c: Capture, steadyTol: number): ReportWindow {
    const fs = this.fs;
    const n = c.left.length;
    const at = (frame: number) => evaluateTimeline(this.steps, frame / fs, this.pitches);
    const mid = at(c.from + n / 2);
    const first = at(c.from);
    const last = at(c.from + n);
    const base: ReportWindow = { label: c.label, start: round(c.from / fs, 3), seconds: round(n / fs, 3), clearOfSteps: c.clear, checks: [] };
    const binaural = mid.effects.binaural?.enabled === true;
    const beatOf = (p: typeof mid) => (p.effects.binaural?.enabled ? p.effects.binaural.value : 0);
    const ears = (f: number, beat: number): { ear: ToneCheck["ear"]; f: number }[] =>
      binaural
        ? [{ ear: "left", f: Math.max(0, f - beat / 2) }, { ear: "right", f: Math.min(MAX_FREQUENCY_HZ, f + beat / 2) }]
        : [{ ear: "mix", f }];
    interface Want { channel: number; ear: ToneCheck["ear"]; f: number; span: number }
    const wanted: Want[] = [];
    mid.channels.forEach((ch, i) => {
      if (!ch.enabled || !(ch.frequency > 0) || !(ch.volume > 0)) return;
      const e0 = ears(first.channels[i].frequency, beatOf(first));
      const e1 = ears(last.channels[i].frequency, beatOf(last));
      ears(ch.frequency, beatOf(mid)).forEach((t, k) => wanted.push({ channel: ch.id, ear: t.ear, f: t.f, span: Math.abs(e1[k].f - e0[k].f) }));
    });
    const pitchFx = PITCH_CHANGING.find((id) => mid.effects[id]?.enabled && !(id === "frequencyShifter" && mid.effects[id].value === 0));
    const spectra = new Map<ToneCheck["ear"], ReturnType<typeof spectrum>>();
    const spectrumOf = (ear: ToneCheck["ear"]) => {
      if (!spectra.has(ear)) {
        const x = ear === "left" ? c.left : ear === "right" ? c.right : c.left.map((v, i) => (v + c.right[i]) / 2);
        spectra.set(ear, spectrum(x, fs, 2));
      }
      return spectra.get(ear)!;
    };
    const bin = fs / n;
    const resolution = 2 * BH_HALF_LOBE_BINS * bin;
    const checks: ToneCheck[] = wanted.map((w) => {
      const toleranceHz = round(steadyTol + RAMP_TOLERANCE_SHARE * w.span, 4);
      const check: ToneCheck = { channel: w.channel, ear: w.ear, kind: "carrier", expectedHz: round(w.f, 4), measuredHz: null, toleranceHz, ramp: w.span > 1e-6, status: "skipped" };
      if (!c.clear) return { ...check, note: "The window spans a step: not measured." };
      if (pitchFx) return { ...check, note: `${effectDef(pitchFx)?.name ?? pitchFx} changes the pitches: not measured.` };
      if (w.f < resolution) return { ...check, note: `Below ${round(resolution, 1)} Hz: too low to measure in a ${round(n / fs, 2)} s window.` };
      const others = wanted.filter((o) => o.ear === w.ear && o !== w && Math.abs(o.f - w.f) > toleranceHz);
      const close = others.find((o) => Math.abs(o.f - w.f) < resolution);
      if (close) return { ...check, note: `Within ${round(Math.abs(close.f - w.f), 2)} Hz of channel ${close.channel}: too close to tell apart.` };
      const room = Math.min(Math.max(BH_HALF_LOBE_BINS * bin, 4 * toleranceHz, w.span), ...others.map((o) => Math.abs(o.f - w.f) / 2));
      const peak = peakIn(spectrumOf(w.ear), w.f - room, w.f + room);
      if (!peak || !peak.inside || peak.amplitude < MIN_TONE_AMPLITUDE) {
        return { ...check, status: "fail", note: `No tone found within ${round(room, 2)} Hz.` };
      }
      const measuredHz = round(peak.frequency, 4);
      return { ...check, measuredHz, levelDbfs: round(dbfs(peak.amplitude)!, 1), status: Math.abs(peak.frequency - w.f) <= toleranceHz ? "pass" : "fail" };
    });
    // The beat, per channel: right - left. Both ears sweep together, so what a ramp does to one
    // ear's peak it does to the other's: the beat's tolerance follows the beat's own sweep (and
    // any difference between the ears' sweeps), not the carrier's.
    const out: ToneCheck[] = [];
    checks.forEach((check, k) => {
      out.push(check);
      if (check.ear !== "right") return;
      const left = checks[k - 1];
      const beatSpan = Math.abs(beatOf(last) - beatOf(first)) + Math.abs(wanted[k].span - wanted[k - 1].span);
      const beat: ToneCheck = {
        channel: check.channel, ear: "mix", kind: "beat",
        expectedHz: round(check.expectedHz - left.expectedHz, 4), measuredHz: null,
        toleranceHz: round(2 * steadyTol + RAMP_TOLERANCE_SHARE * beatSpan, 4), ramp: check.ramp || left.ramp, status: "skipped",
      };
      if (left.measuredHz !== null && check.measuredHz !== null) {
        beat.measuredHz = round(check.measuredHz - left.measuredHz, 4);
        beat.status = Math.abs(beat.measuredHz - beat.expectedHz) <= beat.toleranceHz ? "pass" : "fail";
      } else if (left.status === "fail" || check.status === "fail") {
        beat.status = "fail";
        beat.note = "One ear has no tone.";
      } else beat.note = left.note ?? check.note;
      out.push(beat);
    });
    return { ...base, checks: out };
  }
}
