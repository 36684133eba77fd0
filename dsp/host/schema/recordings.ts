// The schema of the voice recordings a session places (presets, share links): at most
// MAX_RECORDING_PLACEMENTS placements, each naming one of the account's recordings by id. Lenient
// like the voices' schema: numbers are clamped into the model's ranges, a wrong type is an error.

import { z } from "zod";
import {
  MAX_RECORDING_PLACEMENTS, MAX_RECORDING_SECONDS, MAX_REPEAT_MINUTES, RECORDING_MAX_DB, RECORDING_MIN_DB,
  type RecordingPlacement,
} from "../model/recordings";
import { MAX_DURATION_UNLIMITED_SECONDS, MAX_TIMELINE_STEPS } from "../model/limits";

export * from "../model/recordings";

const clamp = (v: number, lo: number, hi: number): number => Math.min(hi, Math.max(lo, v)) || 0;
const r4 = (v: number): number => Math.round(v * 10000) / 10000;
const aNumber = z.number({ error: "must be a number" }).refine(Number.isFinite, { error: "must be a number" });
const within = (lo: number, hi: number) => aNumber.transform((v) => r4(clamp(v, lo, hi)));

/** A recording id as the API gives them (a UUID; letters, digits and dashes). */
export const recordingIdSchema = z.string().regex(/^[A-Za-z0-9-]{1,64}$/, { error: "must be a recording id" });

export const recordingPlacementSchema: z.ZodType<RecordingPlacement, unknown> = z.object({
  id: recordingIdSchema,
  name: z.string().max(100),
  trimStart: within(0, MAX_RECORDING_SECONDS),
  trimEnd: within(0, MAX_RECORDING_SECONDS),
  gainDb: within(RECORDING_MIN_DB, RECORDING_MAX_DB),
  at: within(0, MAX_DURATION_UNLIMITED_SECONDS),
  step: z.number().int().min(0).max(MAX_TIMELINE_STEPS - 1).optional(),
  every: within(0, MAX_REPEAT_MINUTES),
  loop: z.boolean(),
  shared: z.boolean().optional(),
});

export const recordingPlacementsSchema = z
  .array(recordingPlacementSchema)
  .max(MAX_RECORDING_PLACEMENTS, { error: `must have at most ${MAX_RECORDING_PLACEMENTS} recordings` });
