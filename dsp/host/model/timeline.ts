// Session timelines: a list of steps, each at a time from the start with a full or partial state
// (channel frequencies, waveforms, volumes and switches, effect values), reached from the step
// before it either by a jump ("hold": the values stay until the step, then change) or by a ramp
// that runs from the previous step's values to this step's over the time between them.
//
// This module is the model every side uses (zod-free, so that the AudioWorklet can use it; the
// schema for presets, share links and .sbg imports is in dsp/host/schema/timeline.ts, which re-exports all of
// this): the resolution of partial steps into full states, evaluation at any time (the editor's
// lines, the export report's expectations) and compilation into the engine's automation segments
// (sample-accurate channel ramps and per-block effect values inside the wasm engine,
// dsp/assembly/timeline.ts).
//
// Rules (chosen where the timeline's requirements are silent, and written in docs/sessions-and-sbg.md):
// - The session's own state (channels, effects) is the state at 0:00. Steps at 0:00 change it.
// - A channel that is off or at 0 Hz is silent; its frequency is taken from the nearest sounding
//   step (before it, else after it), so a channel fades in and out at its pitch instead of
//   sweeping from or to 0 Hz.
// - Ramps: "linear" (in Hz and in level), "ease" (cosine ease-in-out), "exponential" (frequency
//   moves at a constant rate in octaves, the natural sweep; levels and effect values move
//   linearly unless both ends are above 0).
// - A jump (hold) moves the values linearly over STEP_JUMP_SECONDS (10 ms) from the step's time,
//   so nothing clicks. A waveform or an effect's switch changes at the step's time; during a ramp
//   the switch of the step the ramp leaves applies.

import { EFFECTS, effectDef, extrasToArgs } from "./catalogue";
import { STEP_JUMP_SECONDS } from "./limits";
import { anySoloed, mixerFactor, volumeGain } from "./volume";
import type { ChannelState, EffectState, Ramp, Timeline, TimelineStep, Waveform } from "./state";

import { voicesSound } from "./voice-track";
import type { VoiceSlots } from "./voices";

// The timeline's shapes are part of the state (dsp/host/model/state.ts); re-exported here.
export { RAMPS, type Ramp, type StepChannel, type StepEffect, type Timeline, type TimelineStep } from "./state";

/** The engine's curve codes (dsp/assembly/timeline.ts). */
export const CURVE_CODE: Record<Exclude<Ramp, "hold">, number> = { linear: 0, ease: 1, exponential: 2 };

const clamp = (v: number, lo: number, hi: number): number => Math.min(hi, Math.max(lo, v));

function dropUndefined<T extends object>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
}

/** True when a timeline would change anything (it has at least one step). */
export function hasTimeline(t: Timeline | undefined | null): t is Timeline {
  return !!t && t.steps.length > 0;
}

// ---- resolution: partial steps -> full states ----------------------------------------------------

export interface Base {
  channels: readonly ChannelState[];
  effects: Readonly<Record<string, EffectState>>;
}

export interface ResolvedStep {
  at: number;
  ramp: Ramp;
  channels: ChannelState[];
  effects: Record<string, EffectState>;
  label?: string;
}

function mergeStep(prev: { channels: ChannelState[]; effects: Record<string, EffectState> }, step: TimelineStep) {
  const channels = prev.channels.map((c) => {
    const change = step.channels?.find((x) => x.id === c.id);
    return change ? { ...c, ...dropUndefined(change), id: c.id } : c;
  });
  const effects = { ...prev.effects };
  for (const [id, change] of Object.entries(step.effects ?? {})) {
    if (effects[id]) effects[id] = { ...effects[id], ...change } as EffectState;
  }
  return { channels, effects };
}

/** The full state at every step, the base first (at 0, ramp "hold"). Steps at 0 merge into it. */
export function resolveTimeline(base: Base, timeline: Timeline): ResolvedStep[] {
  let state = { channels: base.channels.map((c) => ({ ...c })), effects: { ...base.effects } };
  const out: ResolvedStep[] = [];
  for (const step of timeline.steps) {
    state = mergeStep(state, step);
    if (step.at <= 0 && out.length === 0) continue;
    out.push({ at: step.at, ramp: step.ramp, ...state, ...(step.label ? { label: step.label } : {}) });
  }
  const first = timeline.steps.find((s) => s.at <= 0)?.label;
  const start = mergeUpTo0(base, timeline);
  return [{ at: 0, ramp: "hold", ...start, ...(first ? { label: first } : {}) }, ...out];
}

function mergeUpTo0(base: Base, timeline: Timeline) {
  let state = { channels: base.channels.map((c) => ({ ...c })), effects: { ...base.effects } };
  for (const step of timeline.steps) if (step.at <= 0) state = mergeStep(state, step);
  return state;
}

/** True when some channel sounds at 0:00 or at any step (enabled and above 0 Hz). */
export function timelineSounds(channels: readonly ChannelState[], timeline: Timeline): boolean {
  let now = channels.map((c) => ({ ...c }));
  if (now.some((c) => c.enabled && c.frequency > 0)) return true;
  for (const step of timeline.steps) {
    now = now.map((c) => {
      const change = step.channels?.find((x) => x.id === c.id);
      return change ? { ...c, ...dropUndefined(change), id: c.id } : c;
    });
    if (now.some((c) => c.enabled && c.frequency > 0)) return true;
  }
  return false;
}

// ---- evaluation ------------------------------------------------------------------------------------

/** The curve's fraction at u in [0, 1] (exponential is applied to the end values, not here). */
export function shape(ramp: Ramp, u: number): number {
  const x = clamp(u, 0, 1);
  if (ramp === "ease") return 0.5 - 0.5 * Math.cos(Math.PI * x);
  return x;
}

/** A value between a and b at fraction u along a ramp. Exponential only where both ends are above 0. */
export function interpolate(ramp: Ramp, a: number, b: number, u: number): number {
  if (ramp === "hold") return u >= 1 ? b : a;
  if (ramp === "exponential" && a > 0 && b > 0) return a * Math.pow(b / a, clamp(u, 0, 1));
  return a + (b - a) * shape(ramp, u);
}

const sounding = (c: ChannelState): boolean => c.enabled && c.frequency > 0;

/** Each step's channel frequencies with silent channels' pitch filled from the nearest sounding
 *  step (before, else after); 0 where a channel never sounds. */
export function pitchTrack(steps: readonly ResolvedStep[]): number[][] {
  const out = steps.map((s) => s.channels.map((c) => (sounding(c) ? c.frequency : NaN)));
  for (let ch = 0; ch < 4; ch++) {
    let last = NaN;
    for (const row of out) {
      if (Number.isNaN(row[ch])) row[ch] = last;
      else last = row[ch];
    }
    let next = NaN;
    for (let i = out.length - 1; i >= 0; i--) {
      if (Number.isNaN(out[i][ch])) out[i][ch] = next;
      else next = out[i][ch];
    }
    for (const row of out) if (Number.isNaN(row[ch])) row[ch] = 0;
  }
  return out;
}

/** The level the engine plays a channel at: 0 when silent, else its volume's gain (volumeGain:
 *  volume / 0.5, 0..2). The mixer's mute and solo are not in it (compileTimeline applies them). */
export function engineGain(c: ChannelState): number {
  return sounding(c) ? volumeGain(c.volume) : 0;
}

export interface TimelinePoint {
  /** The step the time falls in (the last step at or before it). */
  index: number;
  /** 0..1 along the ramp into the next step (0 on a hold). */
  progress: number;
  channels: ChannelState[];
  effects: Record<string, EffectState>;
}

function stepIndexAt(steps: readonly ResolvedStep[], t: number): number {
  let lo = 0;
  let hi = steps.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (steps[mid].at <= t) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** The state at time t (seconds) as the engine plays it, jumps taken at the step's time (the
 *  10 ms jump glide is the engine's business, not the schedule's). */
export function evaluateTimeline(steps: readonly ResolvedStep[], t: number, pitches = pitchTrack(steps)): TimelinePoint {
  const i = stepIndexAt(steps, t);
  const a = steps[i];
  const b = steps[i + 1];
  if (!b || b.ramp === "hold" || b.at <= a.at) {
    return { index: i, progress: 0, channels: a.channels.map((c) => ({ ...c })), effects: { ...a.effects } };
  }
  const u = (t - a.at) / (b.at - a.at);
  const channels = a.channels.map((ca, ch) => {
    const cb = b.channels[ch];
    const fa = pitches[i][ch];
    const fb = pitches[i + 1][ch];
    const on = sounding(ca) || sounding(cb);
    const ga = sounding(ca) ? ca.volume : 0;
    const gb = sounding(cb) ? cb.volume : 0;
    return {
      id: ca.id,
      frequency: on ? interpolate(b.ramp, fa, fb, u) : ca.frequency,
      waveform: sounding(ca) ? ca.waveform : cb.waveform,
      volume: on ? interpolate(b.ramp === "exponential" ? "linear" : b.ramp, ga, gb, u) : ca.volume,
      enabled: on,
    };
  });
  const effects: Record<string, EffectState> = {};
  for (const [id, ea] of Object.entries(a.effects)) {
    const eb = b.effects[id] ?? ea;
    const def = effectDef(id);
    const fx: EffectState = { ...ea, value: interpolate(b.ramp, ea.value, eb.value, u) };
    for (const x of def?.extras ?? []) {
      if (x.kind === "number" && typeof ea[x.key] === "number" && typeof eb[x.key] === "number") {
        fx[x.key] = interpolate(b.ramp, ea[x.key] as number, eb[x.key] as number, u);
      }
    }
    effects[id] = fx;
  }
  return { index: i, progress: u, channels, effects };
}

/** Effect ids whose state differs between any two steps (the ones the host automates). */
export function automatedEffects(steps: readonly ResolvedStep[]): string[] {
  return EFFECTS.map((d) => d.id).filter((id) => {
    const first = JSON.stringify(steps[0]?.effects[id]);
    return steps.some((s) => JSON.stringify(s.effects[id]) !== first);
  });
}

/** The session's end by its schedule: the last step's time (0 without steps). */
export function scheduleEnd(timeline: Timeline): number {
  return timeline.steps.reduce((end, s) => Math.max(end, s.at), 0);
}

// ---- compilation: the engine's per-channel automation segments ----------------------------------

export interface Segment {
  /** First frame (from the sound's start) the segment covers; it lasts until the next one. */
  start: number;
  f0: number;
  f1: number;
  g0: number;
  g1: number;
  /** CURVE_CODE: 0 linear, 1 ease, 2 exponential (frequency; levels then move linearly). */
  curve: number;
  /** 0 sine, 1 square, 2 sawtooth, 3 triangle. */
  waveform: number;
}

export interface CompiledTimeline {
  /** Four lists of segments, each starting at frame 0, in order of start. */
  channels: Segment[][];
  /** Channels that sound anywhere in the session: the mixer's fixed 1/N while it plays. */
  voices: number;
}

const WAVE: Record<Waveform, number> = { sine: 0, square: 1, sawtooth: 2, triangle: 3 };

/** Per-channel segments at sample rate fs. Every value the schedule gives is reached exactly on
 *  its frame; a ramp's end is the next segment's start. */
export function compileTimeline(steps: readonly ResolvedStep[], fs: number): CompiledTimeline {
  const pitches = pitchTrack(steps);
  const jump = Math.max(1, Math.round(STEP_JUMP_SECONDS * fs));
  const channels: Segment[][] = [];
  let voices = 0;
  for (let ch = 0; ch < 4; ch++) {
    const segs: Segment[] = [];
    // Mute and solo come from the state at 0:00 and hold for the whole session.
    const mix = mixerFactor(steps[0].channels[ch], anySoloed(steps[0].channels));
    const gainOf = (i: number) => engineGain(steps[i].channels[ch]) * mix;
    const waveOf = (i: number) => WAVE[steps[i].channels[ch].waveform] ?? 0;
    if (steps.some((_, i) => engineGain(steps[i].channels[ch]) > 0)) voices++;
    const push = (s: Segment) => {
      const last = segs[segs.length - 1];
      if (last && last.start === s.start) segs[segs.length - 1] = s; // a zero-length segment
      else segs.push(s);
    };
    let f = pitches[0][ch];
    let g = gainOf(0);
    let w = waveOf(0);
    push({ start: 0, f0: f, f1: f, g0: g, g1: g, curve: 0, waveform: w });
    for (let i = 1; i < steps.length; i++) {
      const start = Math.round(steps[i].at * fs);
      const next = i + 1 < steps.length ? Math.round(steps[i + 1].at * fs) : Infinity;
      const fNew = pitches[i][ch];
      const gNew = gainOf(i);
      const wNew = gainOf(i) > 0 ? waveOf(i) : w;
      if (steps[i].ramp === "hold") {
        // The jump: from the held values to the new ones over `jump` frames (less if the next
        // step comes sooner), then the new values held.
        if (fNew !== f || gNew !== g || wNew !== w) {
          const end = Math.min(start + jump, next);
          push({ start, f0: f, f1: fNew, g0: g, g1: gNew, curve: 0, waveform: wNew });
          if (end > start) push({ start: end, f0: fNew, f1: fNew, g0: gNew, g1: gNew, curve: 0, waveform: wNew });
        }
      } else {
        // The ramp runs from the previous step's time: replace the hold that began there.
        const from = Math.round(steps[i - 1].at * fs);
        const prev = segs[segs.length - 1];
        const rampStart = Math.max(from, prev.start);
        const seg: Segment = {
          start: rampStart, f0: f, f1: fNew, g0: g, g1: gNew, curve: CURVE_CODE[steps[i].ramp as Exclude<Ramp, "hold">],
          waveform: g > 0 ? w : wNew,
        };
        if (start > rampStart) push(seg);
        push({ start, f0: fNew, f1: fNew, g0: gNew, g1: gNew, curve: 0, waveform: wNew });
      }
      f = fNew;
      g = gNew;
      w = wNew;
    }
    channels.push(segs);
  }
  return { channels, voices: Math.max(1, voices) };
}

/** The value of a segment list at frame n (the engine's own evaluation, for tests and displays). */
export function segmentValueAt(segs: readonly Segment[], n: number): { f: number; g: number } {
  let i = 0;
  while (i + 1 < segs.length && segs[i + 1].start <= n) i++;
  const s = segs[i];
  const end = i + 1 < segs.length ? segs[i + 1].start : Infinity;
  if (!Number.isFinite(end) || (s.f0 === s.f1 && s.g0 === s.g1)) return { f: s.f0, g: s.g0 };
  const u = (n - s.start) / (end - s.start);
  const ramp: Ramp = s.curve === 1 ? "ease" : s.curve === 2 ? "exponential" : "linear";
  return { f: interpolate(ramp, s.f0, s.f1, u), g: interpolate(ramp === "exponential" ? "linear" : ramp, s.g0, s.g1, u) };
}

export interface EffectSegment {
  start: number;
  enabled: boolean;
  /** value, e1, e2, e3 at the segment's start (enum extras as their option index). */
  from: [number, number, number, number];
  /** The same at its end (equal to `from` on a hold; enums never move). */
  to: [number, number, number, number];
  curve: number;
}

export interface CompiledEffect {
  id: string;
  /** The catalogue's wasm slot. */
  slot: number;
  segments: EffectSegment[];
}

/** The automated effects' segments (effects whose state never changes are left to the host's
 *  normal updates). A jump takes the new values at the step's frame (each effect smooths its own
 *  changes); a ramp moves the numbers from the previous step's values, switches and choices
 *  staying as they were until the step. */
export function compileEffects(steps: readonly ResolvedStep[], fs: number): CompiledEffect[] {
  const out: CompiledEffect[] = [];
  for (const id of automatedEffects(steps)) {
    const def = effectDef(id);
    if (!def) continue;
    const args = (fx: EffectState | undefined): [number, number, number, number] => {
      const value = Math.min(def.max, Math.max(def.min, Number.isFinite(fx?.value) ? (fx as EffectState).value : def.default));
      return [value, ...extrasToArgs(def, fx ?? {})];
    };
    const enumAt = def.extras.map((x) => x.kind === "enum");
    const segs: EffectSegment[] = [];
    const first = args(steps[0].effects[id]);
    segs.push({ start: 0, enabled: !!steps[0].effects[id]?.enabled, from: first, to: first, curve: 0 });
    for (let i = 1; i < steps.length; i++) {
      const start = Math.round(steps[i].at * fs);
      const now = args(steps[i].effects[id]);
      const on = !!steps[i].effects[id]?.enabled;
      const prev = segs[segs.length - 1];
      if (steps[i].ramp !== "hold" && start > prev.start) {
        // The ramp runs from the previous step's time: when that step left this effect as it was
        // (no segment began there), hold until it, then ramp.
        const from = Math.round(steps[i - 1].at * fs);
        if (from > prev.start && from < start) segs.push({ ...prev, start: from });
        const held = segs[segs.length - 1];
        const to = held.from.map((a, j) => (j > 0 && enumAt[j - 1] ? a : now[j])) as EffectSegment["to"];
        segs[segs.length - 1] = { ...held, to, curve: CURVE_CODE[steps[i].ramp as Exclude<Ramp, "hold">] };
      }
      const seg: EffectSegment = { start, enabled: on, from: now, to: now, curve: 0 };
      const last = segs[segs.length - 1];
      const same = (a: number[], b: number[]) => a.every((v, j) => v === b[j]);
      if (last.enabled === on && same(last.from, now) && same(last.to, now)) continue; // nothing changes here
      if (last.start === start) segs[segs.length - 1] = seg;
      else segs.push(seg);
    }
    out.push({ id, slot: def.wasm, segments: segs });
  }
  return out;
}

/** True when at least one channel would sound (enabled and above 0 Hz), now or at some step of
 *  the session's timeline, or some voice does (the sound of an SBaGen schedule). */
export function hasAudibleChannel(state: { channels: readonly ChannelState[]; timeline?: Timeline | undefined; voices?: VoiceSlots | undefined }): boolean {
  if (state.channels.some((c) => c.enabled && c.frequency > 0)) return true;
  if (hasTimeline(state.timeline) && timelineSounds(state.channels, state.timeline)) return true;
  return voicesSound(state);
}
