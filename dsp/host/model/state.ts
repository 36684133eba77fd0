// AudioState: what the studio edits and what every sound source (presets, share links, random
// sounds, quantum mode, demo cards) produces, as plain types and defaults. No zod here, so the
// AudioWorklet can import it; the schema that validates presets at the API and share links in the
// browser is dsp/host/schema/state.ts, which checks exactly these types and re-exports this module.
// Defaults and limits follow spec/studio.md sections 3 and 5.

import { EFFECTS, type EffectDef } from "./catalogue";
import { DEFAULT_DURATION_SECONDS } from "./limits";
import type { SoundtrackRef, VoiceSlots } from "./voices";
import type { RecordingPlacement } from "./recordings";

export const WAVEFORMS = ["sine", "square", "sawtooth", "triangle"] as const;
export type Waveform = (typeof WAVEFORMS)[number];

export const DEFAULT_FREQUENCIES = [432, 528, 639, 741] as const;

export interface ChannelState {
  /** 1 to 4. */
  id: number;
  /** Hz, 0 to MAX_FREQUENCY_HZ (0 is silent). */
  frequency: number;
  waveform: Waveform;
  /** 0 to 1, linear (0.5 by default, the nominal level; dsp/host/model/volume.ts). */
  volume: number;
  enabled: boolean;
  /** The mixer: silenced (the volume is kept). */
  muted?: boolean | undefined;
  /** The mixer: while any channel is soloed, only soloed channels sound. */
  solo?: boolean | undefined;
}

/** An effect's switch and main value, plus its extras (catalogue keys) by name. */
export interface EffectState {
  enabled: boolean;
  value: number;
  [key: string]: string | number | boolean;
}

// ---- a session over time: steps, each a full or partial state (dsp/host/model/timeline.ts) ----

export const RAMPS = ["hold", "linear", "ease", "exponential"] as const;
export type Ramp = (typeof RAMPS)[number];

export interface StepChannel {
  id: number;
  frequency?: number;
  waveform?: Waveform;
  volume?: number;
  enabled?: boolean;
}

export type StepEffect = Partial<EffectState>;

export interface TimelineStep {
  /** Seconds from the start of the session. */
  at: number;
  /** How the values reach this step from the step before it. */
  ramp: Ramp;
  channels?: StepChannel[];
  effects?: Record<string, StepEffect>;
  /** A name shown in the editor (an .sbg tone-set's name). */
  label?: string;
  /** The voices from this step on (the whole set, slot by slot; absent: unchanged). */
  voices?: VoiceSlots;
}

export interface Timeline {
  steps: TimelineStep[];
}

export interface AudioState {
  channels: ChannelState[];
  effects: Record<string, EffectState>;
  /** Seconds. */
  duration: number;
  isPlaying?: boolean | undefined;
  /** The session's steps over time (dsp/host/model/timeline.ts). */
  timeline?: Timeline | undefined;
  /** Voices at 0:00 beside the channels (dsp/host/model/voices.ts); SBaGen schedules play in them. */
  voices?: VoiceSlots | undefined;
  /** The recording the mix voices play (its name; the audio itself is loaded beside the state). */
  soundtrack?: SoundtrackRef | undefined;
  /** The account's voice recordings placed in the session (dsp/host/model/recordings.ts; the audio
   *  itself is loaded beside the state). */
  recordings?: RecordingPlacement[] | undefined;
}
/** What makes the sound (no duration or play state): what the engine, exports and renders take. */
export type SoundState = Pick<AudioState, "channels" | "effects" | "timeline" | "voices" | "recordings">;

export function defaultChannels(): ChannelState[] {
  return DEFAULT_FREQUENCIES.map((frequency, i) => ({
    id: i + 1,
    frequency,
    waveform: "sine" as Waveform,
    volume: 0.5,
    enabled: true,
  }));
}

export function defaultEffect(def: EffectDef): EffectState {
  const state: EffectState = { enabled: false, value: def.default };
  for (const x of def.extras) state[x.key] = x.default;
  return state;
}

export function defaultEffects(): Record<string, EffectState> {
  return Object.fromEntries(EFFECTS.map((d) => [d.id, defaultEffect(d)]));
}

export function defaultAudioState(): AudioState {
  return { channels: defaultChannels(), effects: defaultEffects(), duration: DEFAULT_DURATION_SECONDS, isPlaying: false };
}

/** Spec section 4: channels at 0 Hz or below get their default frequency back on start.
 *  Only enabled channels are restored: a switched-off channel keeps showing 0 until switched on. */
export function restoreSilentChannels(channels: readonly ChannelState[]): ChannelState[] {
  return channels.map((c, i) => (c.frequency > 0 || !c.enabled ? c : { ...c, frequency: DEFAULT_FREQUENCIES[i] ?? 432 }));
}
