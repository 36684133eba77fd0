// AudioState: what the studio edits and what every sound source (presets, share links, random
// sounds, quantum mode, demo cards) produces. The zod schema validates presets at the API and
// share links in the browser; defaults and limits follow spec/studio.md sections 3 and 5.

import { z } from "zod";
import { EFFECTS, type EffectDef } from "./catalogue";
import { DEFAULT_DURATION_SECONDS, MAX_DURATION_UNLIMITED_SECONDS, MAX_FREQUENCY_HZ } from "./limits";
// timeline-core imports only types from this module, so there is no cycle at run time.
import { hasTimeline, timelineSounds, type Timeline } from "./timeline-core";

export const WAVEFORMS = ["sine", "square", "sawtooth", "triangle"] as const;
export type Waveform = (typeof WAVEFORMS)[number];

export const DEFAULT_FREQUENCIES = [432, 528, 639, 741] as const;

export const channelSchema = z.object({
  id: z.number().int().min(1).max(4),
  frequency: z.number().finite().min(0).max(MAX_FREQUENCY_HZ),
  waveform: z.enum(WAVEFORMS).default("sine"),
  volume: z.number().finite().min(0).max(1).default(0.5),
  enabled: z.boolean(),
});
export type ChannelState = z.infer<typeof channelSchema>;

export const effectStateSchema = z
  .object({ enabled: z.boolean(), value: z.number().finite() })
  .catchall(z.union([z.string().max(32), z.number().finite(), z.boolean()]));
export type EffectState = z.infer<typeof effectStateSchema>;

export const audioStateSchema = z.object({
  channels: z.array(channelSchema).length(4),
  effects: z.record(z.string().max(64), effectStateSchema),
  duration: z.number().finite().min(1).max(MAX_DURATION_UNLIMITED_SECONDS),
  isPlaying: z.boolean().optional(),
  /** The session's steps over time (dsp/host/timeline.ts; validated there by timelineSchema). */
  timeline: z
    .custom<Timeline>((v) => typeof v === "object" && v !== null && Array.isArray((v as { steps?: unknown }).steps))
    .optional(),
});
export type AudioState = z.infer<typeof audioStateSchema>;
/** What makes the sound (no duration or play state): what the engine, exports and renders take. */
export type SoundState = Pick<AudioState, "channels" | "effects" | "timeline">;

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

/** True when at least one channel would sound (enabled and above 0 Hz), now or at some step of
 *  the session's timeline. */
export function hasAudibleChannel(state: Pick<AudioState, "channels"> & { timeline?: Timeline }): boolean {
  if (state.channels.some((c) => c.enabled && c.frequency > 0)) return true;
  return hasTimeline(state.timeline) && timelineSounds(state.channels, state.timeline);
}

/** Spec section 4: channels at 0 Hz or below get their default frequency back on start.
 *  Only enabled channels are restored: a switched-off channel keeps showing 0 until switched on. */
export function restoreSilentChannels(channels: readonly ChannelState[]): ChannelState[] {
  return channels.map((c, i) => (c.frequency > 0 || !c.enabled ? c : { ...c, frequency: DEFAULT_FREQUENCIES[i] ?? 432 }));
}
