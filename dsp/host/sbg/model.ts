// SBaGen schedules (.sbg) <-> studio sessions: the rules both directions share, in one place.
// The reader is dsp/host/sbg/parse.ts, the writer dsp/host/sbg/write.ts, the public surface
// dsp/host/sbg. Pure TypeScript (no DOM, no Node): the studio, the editor's text view and the
// CLI all use it.
//
// Format reference: SBaGen 1.4 documentation, SBAGEN.TXT section 4 "Writing sequence files"
// (Jim Peters, http://uazu.net/sbagen/), and the reader in sbagen.c 1.4.4 (readNameDef,
// readTimeLine, readTime, correctPeriods), which fixes what the text leaves open: '+' puts the
// higher tone in the LEFT ear ("100+4/20 generates tones of 102 and 98 Hz"), the default fade
// window is 60 s (-F), a '->' slide fades a tone in or out at its own pitch, times are whole
// seconds. The isochronic form `carrier@pulse/amp` and `white/` and `brown/` noise are SBaGen+ /
// SBaGenX extensions (SBaGenX USAGE.md); they are read, and written with a warning.
//
// Mapping (the studio has 4 channels, one binaural beat for all of them, one noise, isochronic
// pulses that gate every channel):
// - A tone-set's tones take channels 1-4 in the order written; a '-' keeps its channel free (so
//   SBaGen's slot-by-slot matching between tone-sets is kept). Noise, mix and bells take no channel.
// - `200-10/A` is a channel at 200 Hz with the binaural beat at 10 Hz: the studio's beat puts
//   f - beat/2 in the left ear, which is SBaGen's '-'. '+' swaps the ears (same beat): a warning,
//   since the binaural effect has no setting for the higher ear, so the writer writes '-'.
// - Amplitudes (SBaGen: percent of full scale, the set's total at most 100) map linearly:
//   volume = amp x N / 200, N = the channels that sound anywhere in the session, because the studio
//   plays a channel at volume v at (v / 0.5) / N of its full tone level (volumeGain). So a tone keeps
//   its SBaGen share of the mix; the studio's per-channel maximum is amp 200 / N (volume 1).
// - Noise `pink/A` is the noise effect at value A (white, pink or brown; plain: colour 0,
//   density 100), whose level is A % of the tone level, as in SBaGen.
// - `200@6/A` is a channel at 200 Hz with isochronic pulses at 6 Hz.

import { effectDef } from "../model/catalogue";
import { MAX_DURATION_UNLIMITED_SECONDS } from "../model/limits";
import { defaultEffect, type ChannelState, type EffectState } from "../schema/state";

export type SbgIssue = { line: number; message: string };

export const NOISE_TYPES = ["white", "pink", "brown"] as const;
export type NoiseType = (typeof NOISE_TYPES)[number];

/** One tone of a tone-set. beat: SBaGen's signed beat (0 for a plain sine); iso: beat is the
 *  isochronic pulse rate instead. */
export interface Tone {
  carrier: number;
  beat: number;
  iso: boolean;
  amp: number;
}

export interface Noise {
  type: NoiseType;
  amp: number;
}

/** What plays at one moment, in SBaGen's terms: four channel slots and the noise. */
export interface SetState {
  channels: (Tone | null)[];
  noise: Noise | null;
}

export const CHANNELS = 4;
/** SBaGen's default fade window between tone-sets (-F), in milliseconds. */
export const DEFAULT_FADE_MS = 60000;
/** A fade window this short or shorter is read as the studio's jump (a "hold" step, 10 ms glide);
 *  the writer uses -F 10 for jumps. */
export const JUMP_FADE_MS = 20;
export const WRITTEN_FADE_MS = 10;
/** How long a schedule's last tone-set plays when it still sounds and nothing says when to stop
 *  (no -E, no -L): SBaGen would loop its 24-hour day; the studio plays it 5 minutes (the studio's
 *  300 s default duration). */
export const SBG_TAIL_SECONDS = 300;
/** Longest schedule read, in characters. The studio writes a 500-step session with a tone-set per
 *  step in about 18 KB, so a file past this is the wrong file. */
export const SBG_MAX_CHARS = 1024 * 1024;
/** SBaGen's own limit of tones per tone-set (N_CH in sbagen.c). */
export const SBG_MAX_TONES = 16;
/** Tone-set names the writer makes up for unnamed steps; the reader gives them no label. */
export const AUTO_NAME = /^auto-\d+$/;
export const NAME = /^[A-Za-z][A-Za-z0-9_-]*$/;
export const DAY_SECONDS = 86400;

const round2 = (v: number): number => Math.round(v * 100) / 100;
const round4 = (v: number): number => Math.round(v * 10000) / 10000;

export const silentSet = (): SetState => ({ channels: [null, null, null, null], noise: null });

export function sameSet(a: SetState, b: SetState): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

export function isSilent(s: SetState): boolean {
  return s.channels.every((t) => !t || t.amp <= 0) && (!s.noise || s.noise.amp <= 0);
}

/** The binaural beat (|beat|) and pulse rate a set plays, from its tones (silent copies too). */
export function setBeat(s: SetState): { beat: number | null; pulse: number | null } {
  const tones = s.channels.filter((t): t is Tone => !!t);
  const bin = tones.find((t) => !t.iso && t.beat !== 0);
  const iso = tones.find((t) => t.iso);
  return { beat: bin ? Math.abs(bin.beat) : null, pulse: iso ? iso.beat : null };
}

// ---- amplitude <-> volume ------------------------------------------------------------------------

export function volumeOf(amp: number, voices: number): number {
  return Math.min(1, round4((amp * Math.max(1, voices)) / 200));
}

export function ampOf(volume: number, voices: number): number {
  return Number(((volume * 200) / Math.max(1, voices)).toFixed(6));
}

// ---- set state -> studio state -------------------------------------------------------------------

export function offChannel(id: number): ChannelState {
  return { id, frequency: 0, waveform: "sine", volume: 0.5, enabled: false };
}

export function studioChannels(s: SetState, voices: number): ChannelState[] {
  return s.channels.map((t, i) =>
    t ? { id: i + 1, frequency: round2(t.carrier), waveform: "sine", volume: volumeOf(t.amp, voices), enabled: true } : offChannel(i + 1),
  );
}

/** The three effects a schedule drives; every other effect stays at its default (off). */
export const SBG_EFFECTS = ["binaural", "isoPulses", "noise"] as const;

export function studioEffects(s: SetState): Record<string, EffectState> {
  const { beat, pulse } = setBeat(s);
  const def = (id: string) => defaultEffect(effectDef(id)!);
  return {
    binaural: beat !== null ? { enabled: true, value: beat } : def("binaural"),
    isoPulses: pulse !== null ? { enabled: true, value: pulse } : def("isoPulses"),
    noise: s.noise ? { enabled: true, value: Math.min(100, s.noise.amp), type: s.noise.type, color: 0, density: 100 } : def("noise"),
  };
}

// ---- text ------------------------------------------------------------------------------------------

/** Shortest text that reads back as the same number. */
export function num(v: number): string {
  return String(Number(v.toFixed(6)));
}

/** Seconds -> hh:mm:ss (whole seconds). */
export function clock(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  const hh = Math.floor(s / 3600);
  const mm = Math.floor((s % 3600) / 60);
  return `${String(hh).padStart(2, "0")}:${String(mm).padStart(2, "0")}:${String(s % 60).padStart(2, "0")}`;
}

export const MAX_SECONDS = MAX_DURATION_UNLIMITED_SECONDS;
