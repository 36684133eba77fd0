// A session's voices over time, compiled into what the engine plays (dsp/assembly/voices.ts): per
// slot, segments in which one kind of voice moves linearly from one set of values to the next, and
// the bell strikes. Plain TypeScript, no zod: the audio worklet compiles with it.
//
// The steps are the session's voices at 0:00 (AudioState.voices) and the timeline's steps that
// carry voices (a step without voices leaves them as they were). Between two steps each slot
// moves as dsp/host/model/voices.ts says:
// - the same kind of voice (and colour, for noise): every value moves linearly over a "linear"
//   ramp (from the step before to this one), or over STEP_JUMP_SECONDS from the step for a "hold";
// - another kind, or a voice coming or going: through silence, the old voice fading linearly to 0
//   at the middle of that time and the new one rising from 0 there;
// - a bell strikes at the time of the step where it appears (a slot becomes a bell, or a bell's
//   carrier or amp changes) and then rings out in the engine whatever the slot does next.
// A ramp starts where the slot's last move ended, so a ramp right after a jump does not overlap it.

import { STEP_JUMP_SECONDS } from "./limits";
import type { SoundState, TimelineStep } from "./state";
import type { NoiseColour, Voice, VoiceSlots, VoiceWaveform } from "./voices";

/** The engine's codes for the kinds (0 is no voice; bells are strikes, not segments). */
export const VOICE_CODE: Record<Exclude<Voice["kind"], "bell">, number> = {
  tone: 1, binaural: 2, isochronic: 3, noise: 4, spin: 5, mix: 6, mixpulse: 7, mixam: 8, mixspin: 9, mixbeat: 10, noisepulse: 11, noisebeat: 12,
};
/** The engine's noise sources: the three colours, then the session's noiseNN spectra (at most MAX_SPECTRA). */
export const MAX_SPECTRA = 4;
export const COLOUR_CODE: Record<NoiseColour, number> = { white: 0, pink: 1, brown: 2 };
/** For tones, binaural and isochronic voices the colour field carries the waveform (the engine's
 *  wavetable numbers, dsp/assembly/osc/wavetable.ts; 0 sine). */
export const WAVE_CODE: Record<VoiceWaveform, number> = { square: 1, sawtooth: 2, triangle: 3 };

export interface VoiceSegment {
  /** Frame from which the segment plays (until the slot's next segment). */
  start: number;
  kind: number;
  colour: number;
  c0: number;
  c1: number;
  b0: number;
  b1: number;
  a0: number;
  a1: number;
  /** mixam's pulse shape (duty, attack, release, edge); absent for every other kind. */
  shape?: [number, number, number, number];
  /** The voice's envelope (an index into CompiledVoices.envelopes); absent: none. */
  envelope?: number;
}

export interface BellStrike {
  /** Frame. */
  at: number;
  freq: number;
  amp: number;
}

export interface CompiledVoices {
  /** Segments per slot (slot i at index i; empty for a slot never used). */
  slots: VoiceSegment[][];
  bells: BellStrike[];
  /** The distinct envelopes (and spin paths) the segments use (dsp/host/model/voices.ts). */
  envelopes: number[][];
  /** The distinct noiseNN spectra: spectrum i is noise source 3 + i. */
  spectra: number[][];
}

interface VoiceStep {
  at: number;
  ramp: TimelineStep["ramp"];
  slots: VoiceSlots;
}

/** The session's voice sets in time order: 0:00 first (steps at 0 merge into it), then each step
 *  that carries voices. Empty when the session has no voices. */
export function voiceSteps(state: Pick<SoundState, "voices" | "timeline">): VoiceStep[] {
  const steps = state.timeline?.steps ?? [];
  if (!(state.voices && state.voices.length > 0) && !steps.some((s) => s.voices)) return [];
  let base: VoiceSlots = state.voices ?? [];
  const out: VoiceStep[] = [];
  for (const step of steps) {
    if (!step.voices) continue;
    if (step.at <= 0 && out.length === 0) base = step.voices;
    else out.push({ at: step.at, ramp: step.ramp, slots: step.voices });
  }
  return [{ at: 0, ramp: "hold", slots: base }, ...out];
}

/** True when some voice or bell sounds at 0:00 or at any step. */
export function voicesSound(state: Pick<SoundState, "voices" | "timeline">): boolean {
  return voiceSteps(state).some((s) => s.slots.some((v) => v !== null && v.amp > 0));
}

/** The values a voice gives the engine: carrier (or spin width), beat (or pulse, or spin rate). */
interface Values {
  kind: number;
  colour: number;
  c: number;
  b: number;
  shape?: [number, number, number, number];
  envelope?: number[];
  spectrum?: number[];
}

function values(v: Voice): Values {
  switch (v.kind) {
    case "tone":
      // A binaural pair with a beat of 0 (as SBaGen plays it), so a tone slides into a beat.
      return { kind: VOICE_CODE.binaural, colour: v.waveform ? WAVE_CODE[v.waveform] : 0, c: v.carrier, b: 0 };
    case "binaural":
      return { kind: VOICE_CODE.binaural, colour: v.waveform ? WAVE_CODE[v.waveform] : 0, c: v.carrier, b: v.beat, ...(v.envelope ? { envelope: v.envelope } : {}) };
    case "isochronic":
      return { kind: VOICE_CODE.isochronic, colour: v.waveform ? WAVE_CODE[v.waveform] : 0, c: v.carrier, b: v.pulse, ...(v.envelope ? { envelope: v.envelope } : {}) };
    case "noise":
      return { kind: VOICE_CODE.noise, colour: COLOUR_CODE[v.colour], c: 0, b: 0, ...(v.spectrum ? { spectrum: v.spectrum } : {}) };
    case "spin":
      return {
        kind: VOICE_CODE.spin, colour: COLOUR_CODE[v.colour], c: v.width, b: v.rate,
        ...(v.spectrum ? { spectrum: v.spectrum } : {}), ...(v.path ? { envelope: v.path } : {}),
      };
    case "noisepulse":
    case "noisebeat":
      return {
        kind: VOICE_CODE[v.kind], colour: COLOUR_CODE.pink, c: 0, b: v.kind === "noisepulse" ? v.pulse : v.beat,
        ...(v.spectrum ? { spectrum: v.spectrum } : {}), ...(v.envelope ? { envelope: v.envelope } : {}),
      };
    case "mix":
      return { kind: VOICE_CODE.mix, colour: 0, c: 0, b: 0 };
    case "mixpulse":
      return { kind: VOICE_CODE.mixpulse, colour: 0, c: 0, b: v.pulse };
    case "mixam":
      // colour: the shape (0 raised cosine, 1 pulse); c: the start (cycles); b: the rate.
      return { kind: VOICE_CODE.mixam, colour: v.shape === "pulse" ? 1 : 0, c: v.start, b: v.rate, shape: [v.duty, v.attack, v.release, v.edge] };
    case "mixspin":
      return { kind: VOICE_CODE.mixspin, colour: 0, c: v.width, b: v.rate };
    case "mixbeat":
      return { kind: VOICE_CODE.mixbeat, colour: 0, c: 0, b: v.beat };
    case "bell":
      return { kind: 0, colour: 0, c: 0, b: 0 };
  }
}

const sameVoice = (a: Voice | null, b: Voice | null): boolean => JSON.stringify(a) === JSON.stringify(b);

/** A voice that sounds in a slot (bells sound as strikes, not in their slot). */
const sounding = (v: Voice | null): Voice | null => (v && v.kind !== "bell" ? v : null);

function sameKind(a: Voice, b: Voice): boolean {
  const x = values(a), y = values(b);
  return x.kind === y.kind && x.colour === y.colour && JSON.stringify(x.envelope) === JSON.stringify(y.envelope) && JSON.stringify(x.spectrum) === JSON.stringify(y.spectrum);
}

/** Compiles the session's voices for a sample rate; null when it has none. */
export function compileVoices(state: Pick<SoundState, "voices" | "timeline">, fs: number): CompiledVoices | null {
  const steps = voiceSteps(state);
  if (steps.length === 0) return null;
  const jump = Math.max(1, Math.round(STEP_JUMP_SECONDS * fs));
  const width = Math.max(...steps.map((s) => s.slots.length));
  const slots: VoiceSegment[][] = [];
  const envelopes: number[][] = [];
  const ids = new Map<string, number>();
  const envelopeId = (env: number[]) => {
    const key = env.join(",");
    let id = ids.get(key);
    if (id === undefined) {
      id = envelopes.push(env) - 1;
      ids.set(key, id);
    }
    return id;
  };
  const spectra: number[][] = [];
  const spectrumSource = (sp: number[]) => {
    const key = sp.join(",");
    let i = spectra.findIndex((x) => x.join(",") === key);
    if (i < 0 && spectra.length < MAX_SPECTRA) i = spectra.push(sp) - 1;
    return i < 0 ? COLOUR_CODE.pink : 3 + i; // past MAX_SPECTRA: pink noise
  };
  for (let k = 0; k < width; k++) slots.push(compileSlot(steps, k, fs, jump, envelopeId, spectrumSource));
  return { slots, bells: bellStrikes(steps, fs), envelopes, spectra };
}

function compileSlot(
  steps: readonly VoiceStep[], k: number, fs: number, jump: number, envelopeId: (env: number[]) => number, spectrumSource: (sp: number[]) => number,
): VoiceSegment[] {
  const segs: VoiceSegment[] = [];
  const push = (start: number, from: Voice | null, to: Voice | null, a0: number, a1: number) => {
    const v = from ?? to;
    const x = v ? values(v) : { kind: 0, colour: 0, c: 0, b: 0 };
    const y = to && from && sameKind(from, to) ? values(to) : x;
    const seg: VoiceSegment = {
      start, kind: x.kind, colour: x.spectrum ? spectrumSource(x.spectrum) : x.colour, c0: x.c, c1: y.c, b0: x.b, b1: y.b, a0, a1,
      ...(x.shape ? { shape: x.shape } : {}),
      ...(x.envelope ? { envelope: envelopeId(x.envelope) } : {}),
    };
    const last = segs[segs.length - 1];
    if (last && last.start >= start) segs[segs.length - 1] = seg; // a zero-length segment
    else segs.push(seg);
  };
  const hold = (start: number, v: Voice | null) => push(start, v, v, v?.amp ?? 0, v?.amp ?? 0);
  let prev = sounding(steps[0].slots[k] ?? null);
  hold(0, prev);
  let settled = 0; // frame from which the slot holds `prev`
  for (let i = 1; i < steps.length; i++) {
    const cur = sounding(steps[i].slots[k] ?? null);
    if (sameVoice(prev, cur)) continue;
    const at = Math.round(steps[i].at * fs);
    const next = i + 1 < steps.length ? Math.round(steps[i + 1].at * fs) : Infinity;
    // The move: a ramp from the step before (or from where the slot settled), else a jump.
    let from = steps[i].ramp === "hold" ? at : Math.max(Math.round(steps[i - 1].at * fs), settled);
    let to = at;
    if (to - from < 1) {
      from = at;
      to = Math.min(at + jump, next);
    }
    if (prev && cur && sameKind(prev, cur)) {
      push(from, prev, cur, prev.amp, cur.amp);
    } else {
      const mid = Math.round((from + to) / 2);
      if (prev) push(from, prev, prev, prev.amp, 0);
      else hold(from, null);
      if (cur) push(mid, cur, cur, 0, cur.amp);
      else hold(mid, null);
    }
    hold(to, cur);
    settled = to;
    prev = cur;
  }
  return segs;
}

function bellStrikes(steps: readonly VoiceStep[], fs: number): BellStrike[] {
  const bells: BellStrike[] = [];
  const width = Math.max(...steps.map((s) => s.slots.length));
  for (let k = 0; k < width; k++) {
    let prev: Voice | null = null;
    for (const step of steps) {
      const v = step.slots[k] ?? null;
      if (v?.kind === "bell" && !sameVoice(prev, v) && v.amp > 0) bells.push({ at: Math.round(step.at * fs), freq: v.carrier, amp: v.amp });
      prev = v;
    }
  }
  return bells.sort((a, b) => a.at - b.at);
}
