// The session timeline's schema: what presets, share links and .sbg imports are checked with.
// Lenient like the preset schema (dsp/host/schema/preset.ts): numbers are clamped, unknown effects and
// keys dropped, unknown ramps become "hold"; a value of the wrong type is an error. The model
// itself (resolution, evaluation, compilation for the engine) is in dsp/host/model/timeline.ts, which has
// no zod so that the AudioWorklet can use it; everything is re-exported here.

import { z } from "zod";
import { effectDef } from "../model/catalogue";
import { MAX_DURATION_UNLIMITED_SECONDS, MAX_FREQUENCY_HZ, MAX_TIMELINE_STEPS } from "../model/limits";
import { WAVEFORMS, type Waveform } from "../model/state";
import { voiceSlotsSchema } from "./voices";
import { RAMPS, type Ramp, type StepChannel, type StepEffect, type Timeline, type TimelineStep } from "../model/timeline";

export * from "../model/timeline";

/** In range, and -0 made 0: JSON writes -0 as 0, so a stored or linked state would not read back
 *  the same (found by the preset round-trip property test). The preset schema's clamp too. */
export const clamp = (v: number, lo: number, hi: number): number => Math.min(hi, Math.max(lo, v)) || 0;
const round2 = (v: number): number => Math.round(v * 100) / 100;
const round3 = (v: number): number => Math.round(v * 1000) / 1000;

const aNumber = z.number({ error: "must be a number" });
const STEP_ID = { error: "must be a whole number from 1 to 4" };

// ---- schema: lenient like the preset schema (clamped and made to fit; wrong types are errors) ----

const stepChannelInput = z
  .object(
    {
      id: z.number(STEP_ID).int(STEP_ID).min(1, STEP_ID).max(4, STEP_ID),
      frequency: aNumber.optional().transform((f) => (f === undefined ? undefined : round2(clamp(f, 0, MAX_FREQUENCY_HZ)))),
      waveform: z.unknown().optional().transform((w) => (WAVEFORMS.includes(w as Waveform) ? (w as Waveform) : undefined)),
      volume: aNumber.optional().transform((v) => (v === undefined ? undefined : clamp(v, 0, 1))),
      enabled: z.boolean({ error: "must be true or false" }).optional(),
    },
    { error: "must be an object" },
  )
  .transform((c): StepChannel => dropUndefined(c));

function dropUndefined<T extends object>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
}
/** An effect's partial state at a step: known keys clamped to the catalogue, others dropped. */
function stepEffect(id: string, raw: Record<string, unknown>): StepEffect | null {
  const def = effectDef(id);
  if (!def) return null;
  const out: StepEffect = {};
  if (typeof raw.enabled === "boolean") out.enabled = raw.enabled;
  if (typeof raw.value === "number" && Number.isFinite(raw.value)) out.value = clamp(raw.value, def.min, def.max);
  for (const x of def.extras) {
    const v = raw[x.key];
    if (x.kind === "enum" && typeof v === "string" && x.options.includes(v)) out[x.key] = v;
    if (x.kind === "number" && typeof v === "number" && Number.isFinite(v)) out[x.key] = clamp(v, x.min, x.max);
  }
  return out;
}

const stepEffectsInput = z
  .record(z.string(), z.record(z.string(), z.unknown(), { error: "must be an object" }), { error: "must be an object of effects" })
  .transform((given): Record<string, StepEffect> => {
    const out: Record<string, StepEffect> = {};
    for (const [id, raw] of Object.entries(given)) {
      const fx = stepEffect(id, raw);
      if (fx && Object.keys(fx).length > 0) out[id] = fx;
    }
    return out;
  });

const stepInput = z
  .object(
    {
      at: aNumber.refine(Number.isFinite, { error: "must be a number" }).transform((t) => round3(clamp(t, 0, MAX_DURATION_UNLIMITED_SECONDS))),
      ramp: z.unknown().optional().transform((r): Ramp => (RAMPS.includes(r as Ramp) ? (r as Ramp) : "hold")),
      channels: z
        .array(stepChannelInput, { error: "must be a list of channels" })
        .max(4, { error: "must hold at most 4 channels" })
        .refine((list) => new Set(list.map((c) => c.id)).size === list.length, { error: "must not repeat a channel id" })
        .optional(),
      effects: stepEffectsInput.optional(),
      label: z.string({ error: "must be text" }).max(64, { error: "must be at most 64 characters" }).optional(),
      voices: voiceSlotsSchema.optional(),
    },
    { error: "must be an object" },
  )
  .transform((s): TimelineStep => dropUndefined(s));

/** THE timeline schema: unknown JSON in, steps sorted by time (stable) out. */
export const timelineSchema: z.ZodType<Timeline, unknown> = z.object(
  {
    steps: z
      .array(stepInput, { error: "must be a list of steps" })
      .max(MAX_TIMELINE_STEPS, { error: `must hold at most ${MAX_TIMELINE_STEPS} steps` })
      .transform((steps) => steps.map((s, i) => ({ s, i })).sort((a, b) => a.s.at - b.s.at || a.i - b.i).map(({ s }) => s)),
  },
  { error: "must be an object with steps" },
);

