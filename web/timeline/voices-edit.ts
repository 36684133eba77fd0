// The voices' edits as pure functions, and the .sbg import rule that decides between channels and
// voices. A session's voices are its slots at 0:00 (AudioState.voices) and the whole slot set of
// each step that carries voices (TimelineStep.voices; a step without them leaves them as they were).
// Each edit takes the session's sound ({ voices, timeline }) and a target (START for 0:00, else a
// step index) and returns a new sound, never mutating the one given. Slots keep their places (a
// removed voice leaves its slot empty, so the other slots still pair with the same voices between
// steps); values are made to fit by the model's own schema (dsp/host/schema/voices.ts).

import { parseSbg, readSbgVoices, type ReadOptions, type SbgResult } from "../../dsp/host/sbg/index";
import type { Timeline, TimelineStep } from "../../dsp/host/schema/timeline";
import { MAX_VOICES, MIXAM_DEFAULTS, voiceSlotsSchema, type NoiseColour, type Voice, type VoiceKind, type VoiceSlots, type VoiceWaveform } from "../../dsp/host/schema/voices";
import { VOICES_FULL } from "./messages";

/** What the voice edits read and write: the session's voices at 0:00 and its timeline. */
export interface VoiceSound {
  voices?: VoiceSlots | undefined;
  timeline?: Timeline | undefined;
}

/** The target of an edit: the session's start (0:00) or a step index. */
export const START = -1;

export type VoiceEditResult = ({ ok: true } & VoiceSound) | { ok: false; error: string };

/** The import rule: a schedule the four channels play exactly (parseSbg with no warnings) stays in
 *  the channels; anything else (refused by parseSbg, or played otherwise: the '+' ears, several
 *  beats, spin, isochronic beside binaural, more than four tones, bells...) is read as SBaGen plays
 *  it, in voices. When neither reads it, parseSbg's errors stand (the channels' reading). */
export function readSchedule(source: string, options: ReadOptions = {}): SbgResult {
  const parsed = parseSbg(source);
  if (parsed.ok && parsed.warnings.length === 0) return parsed;
  const voiced = readSbgVoices(source, options);
  return voiced.ok ? voiced : parsed;
}

/** True when the session has voices at 0:00 or on any step. */
export function hasVoices(sound: VoiceSound): boolean {
  return (sound.voices?.some((v) => v !== null) ?? false) || (sound.timeline?.steps.some((s) => s.voices !== undefined) ?? false);
}

/** The slots playing from `target` on, and whether the target sets them itself (0:00 always does;
 *  a step without voices plays those of the last step before it that has some, else 0:00's). */
export function voicesAt(sound: VoiceSound, target: number): { slots: VoiceSlots; own: boolean } {
  const steps = sound.timeline?.steps ?? [];
  if (target < 0 || target >= steps.length) return { slots: sound.voices ?? [], own: true };
  if (steps[target].voices) return { slots: steps[target].voices, own: true };
  for (let i = target - 1; i >= 0; i--) if (steps[i].voices) return { slots: steps[i].voices!, own: false };
  return { slots: sound.voices ?? [], own: false };
}

/** Slots made to fit the schema (values clamped and rounded), with the empty slots at the end
 *  dropped; the given slots when the schema refuses them. */
function fitSlots(slots: VoiceSlots): VoiceSlots {
  const parsed = voiceSlotsSchema.safeParse(slots);
  const out = parsed.success ? parsed.data : slots;
  let end = out.length;
  while (end > 0 && out[end - 1] === null) end--;
  return out.slice(0, end);
}

/** The sound with `target`'s whole slot set replaced. */
export function setVoiceSlots(sound: VoiceSound, target: number, slots: VoiceSlots): VoiceSound {
  const fitted = fitSlots(slots);
  const steps = sound.timeline?.steps ?? [];
  if (target < 0 || target >= steps.length) return { ...sound, voices: fitted.length > 0 ? fitted : undefined };
  const next = steps.slice();
  next[target] = { ...steps[target], voices: fitted };
  return { ...sound, timeline: { steps: next } };
}

/** A new voice of `kind`, keeping what it shares with `from` (carrier, amp, colour). */
export function voiceOfKind(kind: VoiceKind, from?: Voice | null): Voice {
  const carrier = from && "carrier" in from ? from.carrier : 200;
  const amp = from ? from.amp : 20;
  const colour: NoiseColour = from && "colour" in from ? from.colour : "pink";
  switch (kind) {
    case "tone": return { kind, carrier, amp };
    case "binaural": return { kind, carrier, beat: from?.kind === "isochronic" ? from.pulse : 10, amp };
    case "isochronic": return { kind, carrier, pulse: from?.kind === "binaural" ? Math.abs(from.beat) : 10, amp };
    case "noise": return { kind, colour, amp };
    case "spin": return { kind, colour, width: 300, rate: 4, amp };
    case "bell": return { kind, carrier, amp };
    case "mix": return { kind, amp };
    case "mixpulse": return { kind, pulse: 10, amp: 50 };
    case "mixam": return { kind, rate: 2, amp: 100 * (1 - MIXAM_DEFAULTS.floor), shape: MIXAM_DEFAULTS.shape, start: MIXAM_DEFAULTS.start, duty: MIXAM_DEFAULTS.duty, attack: MIXAM_DEFAULTS.attack, release: MIXAM_DEFAULTS.release, edge: MIXAM_DEFAULTS.edge };
    case "mixspin": return { kind, width: 300, rate: 4, amp: 50 };
    case "mixbeat": return { kind, beat: 6, amp: 45 };
    case "noisepulse": return { kind, pulse: from?.kind === "isochronic" ? from.pulse : 2, amp };
    case "noisebeat": return { kind, beat: from?.kind === "binaural" ? from.beat : 2, amp };
  }
}

/** Adds a voice (by default a 200 Hz tone at 20 %) in `target`'s first empty slot, or after the
 *  last one; refused when the target holds MAX_VOICES voices. A step without voices of its own
 *  starts from the voices it plays. Returns the slot used. */
export function addVoice(sound: VoiceSound, target: number, voice: Voice = voiceOfKind("tone")): VoiceEditResult & { slot?: number } {
  const slots = voicesAt(sound, target).slots.slice();
  let slot = slots.indexOf(null);
  if (slot < 0) {
    if (slots.length >= MAX_VOICES) return { ok: false, error: VOICES_FULL };
    slot = slots.length;
  }
  slots[slot] = voice;
  return { ok: true, ...setVoiceSlots(sound, target, slots), slot };
}

/** Empties slot `slot` at `target` (the other slots keep their places). */
export function removeVoice(sound: VoiceSound, target: number, slot: number): VoiceSound {
  const slots = voicesAt(sound, target).slots.slice();
  if (!(slot >= 0 && slot < slots.length)) return sound;
  slots[slot] = null;
  return setVoiceSlots(sound, target, slots);
}

/** Numbers a voice can carry, by name; a patch sets those the slot's voice has. */
export type VoicePatch = Partial<{ carrier: number; beat: number; pulse: number; width: number; rate: number; amp: number; colour: NoiseColour }>;

/** Changes some values of the voice in slot `slot` at `target` (values it does not have are
 *  ignored; a value that is not a finite number leaves the voice unchanged). */
export function updateVoice(sound: VoiceSound, target: number, slot: number, patch: VoicePatch): VoiceSound {
  const slots = voicesAt(sound, target).slots.slice();
  const voice = slots[slot];
  if (!voice) return sound;
  const next: Record<string, unknown> = { ...voice };
  for (const [key, value] of Object.entries(patch)) {
    if (!(key in voice)) continue;
    if (typeof value === "number" && !Number.isFinite(value)) return sound;
    next[key] = value;
  }
  slots[slot] = next as unknown as Voice;
  return setVoiceSlots(sound, target, slots);
}

/** Sets the waveform of the tone, binaural or isochronic voice in slot `slot` at `target` ("sine":
 *  none); other voices are left as they are. */
export function setVoiceWaveform(sound: VoiceSound, target: number, slot: number, waveform: "sine" | VoiceWaveform): VoiceSound {
  const slots = voicesAt(sound, target).slots.slice();
  const voice = slots[slot];
  if (!voice || !(voice.kind === "tone" || voice.kind === "binaural" || voice.kind === "isochronic")) return sound;
  const next: Voice & { waveform?: VoiceWaveform } = { ...voice };
  delete next.waveform;
  slots[slot] = waveform === "sine" ? next : { ...next, waveform };
  return setVoiceSlots(sound, target, slots);
}

/** Changes the kind of the voice in slot `slot` at `target` (voiceOfKind keeps what it can). */
export function setVoiceKind(sound: VoiceSound, target: number, slot: number, kind: VoiceKind): VoiceSound {
  const slots = voicesAt(sound, target).slots.slice();
  const voice = slots[slot];
  if (!voice || voice.kind === kind) return sound;
  slots[slot] = voiceOfKind(kind, voice);
  return setVoiceSlots(sound, target, slots);
}

/** Drops step `index`'s own voices: it plays those from before again. */
export function clearStepVoices(sound: VoiceSound, index: number): VoiceSound {
  const steps = sound.timeline?.steps ?? [];
  if (!steps[index]?.voices) return sound;
  const next = steps.slice();
  const step: TimelineStep = { ...steps[index] };
  delete step.voices;
  next[index] = step;
  return { ...sound, timeline: { steps: next } };
}
