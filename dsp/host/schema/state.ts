// The studio state's zod schema: it validates presets at the API and share links in the browser.
// It checks exactly the plain types of dsp/host/model/state.ts (a field added to one and not the
// other fails to compile below) and re-exports that module, so code outside the audio worklet
// imports one module for the state.

import { z } from "zod";
import { MAX_DURATION_UNLIMITED_SECONDS, MAX_FREQUENCY_HZ } from "../model/limits";
import { type AudioState, type ChannelState, type EffectState, WAVEFORMS } from "../model/state";
import type { Timeline } from "../model/timeline";
import { soundtrackRefSchema, voiceSlotsSchema } from "./voices";
import { recordingPlacementsSchema } from "./recordings";

export * from "../model/state";
export { hasAudibleChannel } from "../model/timeline";

export const channelSchema = z.object({
  id: z.number().int().min(1).max(4),
  frequency: z.number().finite().min(0).max(MAX_FREQUENCY_HZ),
  waveform: z.enum(WAVEFORMS).default("sine"),
  volume: z.number().finite().min(0).max(1).default(0.5),
  enabled: z.boolean(),
  muted: z.boolean().optional(),
  solo: z.boolean().optional(),
});

export const effectStateSchema = z
  .object({ enabled: z.boolean(), value: z.number().finite() })
  .catchall(z.union([z.string().max(32), z.number().finite(), z.boolean()]));

export const audioStateSchema = z.object({
  channels: z.array(channelSchema).length(4),
  effects: z.record(z.string().max(64), effectStateSchema),
  duration: z.number().finite().min(1).max(MAX_DURATION_UNLIMITED_SECONDS),
  isPlaying: z.boolean().optional(),
  /** The session timeline (validated by timelineSchema in dsp/host/schema/timeline.ts). */
  timeline: z
    .custom<Timeline>((v) => typeof v === "object" && v !== null && Array.isArray((v as { steps?: unknown }).steps))
    .optional(),
  voices: voiceSlotsSchema.optional(),
  soundtrack: soundtrackRefSchema.optional(),
  recordings: recordingPlacementsSchema.optional(),
});

// The schemas' output types are the model's types, both ways.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Assert<T extends true> = T;
export type SchemasMatchModel = [
  Assert<Same<z.infer<typeof channelSchema>, ChannelState>>,
  Assert<Same<z.infer<typeof effectStateSchema>, EffectState>>,
  Assert<Same<z.infer<typeof audioStateSchema>, AudioState>>,
];
