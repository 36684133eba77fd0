// The voices' schema (presets, share links, .sbg imports): a list of at most MAX_VOICES slots,
// each a voice or null. Lenient like the timeline's schema: numbers are clamped into the model's
// ranges (VOICE_LIMITS), a wrong type or an unknown kind is an error.

import { z } from "zod";
import { ENVELOPE_MAX_POINTS, MAX_VOICES, MIXAM_SHAPES, SPECTRUM_BANDS, SPECTRUM_DB_LIMIT, VOICE_KINDS, VOICE_WAVEFORMS, NOISE_COLOURS, SOUNDTRACK_NAME_MAX, VOICE_LIMITS, type SoundtrackRef, type Voice, type VoiceSlots } from "../model/voices";

export * from "../model/voices";

const clamp = (v: number, lo: number, hi: number): number => Math.min(hi, Math.max(lo, v)) || 0;
const r4 = (v: number): number => Math.round(v * 10000) / 10000;
const aNumber = z.number({ error: "must be a number" }).refine(Number.isFinite, { error: "must be a number" });
const within = (lo: number, hi: number) => aNumber.transform((v) => r4(clamp(v, lo, hi)));

const carrier = within(0, VOICE_LIMITS.carrier);
const amp = within(0, VOICE_LIMITS.amp);
const envelope = z
  .array(within(0, 1), { error: "must be a list of levels from 0 to 1" })
  .min(2, { error: "must have at least 2 levels" })
  .max(ENVELOPE_MAX_POINTS, { error: `must have at most ${ENVELOPE_MAX_POINTS} levels` });
const spectrum = z
  .array(within(-SPECTRUM_DB_LIMIT, SPECTRUM_DB_LIMIT), { error: "must be a list of gains in dB" })
  .length(SPECTRUM_BANDS, { error: `must have ${SPECTRUM_BANDS} gains` });
const path = z
  .array(within(-1, 1), { error: "must be a list of levels from -1 to 1" })
  .min(2, { error: "must have at least 2 levels" })
  .max(ENVELOPE_MAX_POINTS, { error: `must have at most ${ENVELOPE_MAX_POINTS} levels` });
const waveform = z.enum(VOICE_WAVEFORMS, { error: "must be square, sawtooth or triangle" }).optional();
const colour = z.enum(NOISE_COLOURS, { error: "must be white, pink or brown" });

const voiceSchema: z.ZodType<Voice, unknown> = z.discriminatedUnion(
  "kind",
  [
    z.object({ kind: z.literal("tone"), carrier, amp, waveform }),
    z.object({ kind: z.literal("binaural"), carrier, beat: within(-VOICE_LIMITS.beat, VOICE_LIMITS.beat), amp, envelope: envelope.optional(), waveform }),
    z.object({ kind: z.literal("isochronic"), carrier, pulse: within(0, VOICE_LIMITS.pulse), amp, envelope: envelope.optional(), waveform }),
    z.object({ kind: z.literal("noise"), colour, amp, spectrum: spectrum.optional() }),
    z.object({
      kind: z.literal("spin"), colour, width: within(0, VOICE_LIMITS.width), rate: within(-VOICE_LIMITS.rate, VOICE_LIMITS.rate), amp,
      spectrum: spectrum.optional(), path: path.optional(),
    }),
    z.object({ kind: z.literal("bell"), carrier, amp }),
    z.object({ kind: z.literal("mix"), amp }),
    z.object({ kind: z.literal("mixpulse"), pulse: within(0, VOICE_LIMITS.pulse), amp }),
    z.object({
      kind: z.literal("mixam"),
      rate: within(0, VOICE_LIMITS.pulse),
      amp,
      shape: z.enum(MIXAM_SHAPES, { error: "must be cos or pulse" }),
      start: within(0, 1),
      duty: within(0, 1),
      attack: within(0, 1),
      release: within(0, 1),
      edge: within(0, 3).transform(Math.round),
    }),
    z.object({ kind: z.literal("mixspin"), width: within(0, VOICE_LIMITS.width), rate: within(-VOICE_LIMITS.rate, VOICE_LIMITS.rate), amp }),
    z.object({ kind: z.literal("mixbeat"), beat: within(-VOICE_LIMITS.beat, VOICE_LIMITS.beat), amp }),
    z.object({ kind: z.literal("noisepulse"), pulse: within(0, VOICE_LIMITS.pulse), amp, envelope: envelope.optional(), spectrum: spectrum.optional() }),
    z.object({ kind: z.literal("noisebeat"), beat: within(-VOICE_LIMITS.beat, VOICE_LIMITS.beat), amp, envelope: envelope.optional(), spectrum: spectrum.optional() }),
  ],
  { error: `must be ${VOICE_KINDS.slice(0, -1).join(", ")} or ${VOICE_KINDS[VOICE_KINDS.length - 1]}` },
);

/** THE voices schema: unknown JSON in, slots out. */
export const voiceSlotsSchema: z.ZodType<VoiceSlots, unknown> = z
  .array(voiceSchema.nullable(), { error: "must be a list of voices" })
  .max(MAX_VOICES, { error: `must hold at most ${MAX_VOICES} voices` });

/** The soundtrack's reference: a file name, without folders (a shared preset must not name paths). */
export const soundtrackRefSchema: z.ZodType<SoundtrackRef, unknown> = z.object(
  {
    name: z
      .string({ error: "must be a file name" })
      .trim()
      .min(1, { error: "must be a file name" })
      .max(SOUNDTRACK_NAME_MAX, { error: `must be at most ${SOUNDTRACK_NAME_MAX} characters` })
      .transform((n) => n.split(/[\\/]/).pop() ?? n),
  },
  { error: "must be an object with a name" },
);
