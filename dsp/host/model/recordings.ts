// Voice recordings ("Recordings", kept apart from the engine's SBaGen voices): what a session says
// about the account's recordings it places (AudioState.recordings), the decoded audio the engine
// takes beside the state (RecordingClip), and the compile of placements to engine frames
// (dsp/assembly/recordings.ts). Plain TypeScript, no zod: the worklet imports it.
//
// A placement names a recording by its id (the API's /api/recordings/{id}), the part of it that
// plays (trim), its level in dB on the recording's own full scale, and when it plays: from `at`
// seconds (or from the time of timeline step `step` when the session has that step), once, again
// every `every` minutes, or looped back to back under the whole session.

import { MAX_RECORDING_PLACEMENTS, MAX_RECORDING_SECONDS, MAX_RECORDING_STORE_FRAMES } from "./limits";

/** What the compile reads of a session's timeline: its steps' times (AudioState.timeline). */
type StepTimes = { steps: readonly { at: number }[] } | undefined;

export { MAX_RECORDING_PLACEMENTS, MAX_RECORDING_SECONDS, MAX_RECORDING_STORE_FRAMES };

/** The rate recordings are captured, stored and played at (the studio's and the exports' rate). */
export const RECORDING_RATE = 48000;
/** Level range in dB (the Recordings panel's slider; presets are clamped to it). */
export const RECORDING_MIN_DB = -60;
export const RECORDING_MAX_DB = 12;
/** Longest repeat period in minutes. */
export const MAX_REPEAT_MINUTES = 720;

export interface RecordingPlacement {
  /** The recording's id in the account (GET /api/recordings/{id}/audio). */
  id: string;
  /** Its name, shown when the audio is not there. */
  name: string;
  /** The part that plays, in seconds of the recording: [trimStart, trimEnd); trimEnd 0 (or past
   *  the end) is the end. */
  trimStart: number;
  trimEnd: number;
  /** Level in dB on the recording's own full scale (0: as recorded). */
  gainDb: number;
  /** When it first plays, in seconds from the session's start. */
  at: number;
  /** A timeline step whose time replaces `at` while the session has it (0-based). */
  step?: number | undefined;
  /** Minutes between two starts; 0 plays it once. */
  every: number;
  /** Back to back from `at` for the whole session (every is then ignored). */
  loop: boolean;
  /** Included in a shared preset (the share link may fetch the audio). */
  shared?: boolean | undefined;
}

/** A recording's audio as the engine takes it: mono 16-bit PCM at the engine's rate. */
export interface RecordingClip {
  id: string;
  rate: number;
  frames: number;
  pcm: Int16Array;
}

/** One placement in engine frames: audio [offset, offset + length) of the store. */
export interface CompiledPlacement {
  offset: number;
  length: number;
  start: number;
  period: number;
  loop: boolean;
  gain: number;
}

export function dbToGain(db: number): number {
  return Number.isFinite(db) ? 10 ** (Math.min(RECORDING_MAX_DB, Math.max(RECORDING_MIN_DB, db)) / 20) : 1;
}

export function gainToDb(gain: number): number {
  return gain > 0 ? 20 * Math.log10(gain) : RECORDING_MIN_DB;
}

/** When the placement first plays, in seconds (the step's time when it names a step the
 *  timeline has); negative only after recordingsFrom. */
export function placementStart(p: RecordingPlacement, timeline: StepTimes): number {
  const step = p.step !== undefined ? timeline?.steps[p.step] : undefined;
  const at = step ? step.at : p.at;
  return Number.isFinite(at) ? at : 0;
}

/** The placements as the sound from `offset` seconds on plays them (a seek: the engine starts
 *  again at 0): each start moved `offset` earlier, steps resolved first (the seek moves the
 *  timeline too). A start before 0 is an occurrence already under way. */
export function recordingsFrom(placements: readonly RecordingPlacement[] | undefined, timeline: StepTimes, offset: number): RecordingPlacement[] | undefined {
  if (!placements || offset <= 0) return placements ? [...placements] : undefined;
  return placements.map((p) => ({ ...p, at: placementStart(p, timeline) - offset, step: undefined }));
}

/** The clips the placements use, in first-use order, each once (what the engine's store holds). */
export function usedClips(placements: readonly RecordingPlacement[] | undefined, clips: ReadonlyMap<string, RecordingClip>): RecordingClip[] {
  const out: RecordingClip[] = [];
  const seen = new Set<string>();
  let frames = 0;
  for (const p of (placements ?? []).slice(0, MAX_RECORDING_PLACEMENTS)) {
    const c = clips.get(p.id);
    if (!c || seen.has(p.id) || frames + c.frames > MAX_RECORDING_STORE_FRAMES) continue;
    seen.add(p.id);
    frames += c.frames;
    out.push(c);
  }
  return out;
}

/** The placements in engine frames against a store holding `store` one after the other. A
 *  placement whose audio is not loaded, or that trims everything away, is left out. */
export function compileRecordings(
  placements: readonly RecordingPlacement[] | undefined,
  store: readonly RecordingClip[],
  timeline: StepTimes,
  rate: number,
): CompiledPlacement[] {
  const base = new Map<string, { offset: number; frames: number }>();
  let offset = 0;
  for (const c of store) {
    base.set(c.id, { offset, frames: c.frames });
    offset += c.frames;
  }
  const out: CompiledPlacement[] = [];
  for (const p of (placements ?? []).slice(0, MAX_RECORDING_PLACEMENTS)) {
    const clip = base.get(p.id);
    if (!clip) continue;
    const from = Math.min(clip.frames, Math.max(0, Math.round((Number.isFinite(p.trimStart) ? p.trimStart : 0) * rate)));
    const endRaw = Number.isFinite(p.trimEnd) && p.trimEnd > 0 ? Math.round(p.trimEnd * rate) : clip.frames;
    const to = Math.min(clip.frames, endRaw);
    if (to <= from) continue;
    const every = Number.isFinite(p.every) && p.every > 0 ? Math.min(p.every, MAX_REPEAT_MINUTES) : 0;
    out.push({
      offset: clip.offset + from,
      length: to - from,
      start: Math.round(placementStart(p, timeline) * rate),
      period: p.loop ? 0 : Math.round(every * 60 * rate),
      loop: p.loop,
      gain: dbToGain(p.gainDb),
    });
  }
  return out;
}
