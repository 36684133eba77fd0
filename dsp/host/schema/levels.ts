// Safe listening levels: the listener's own settings (kept on the device, not in presets, since
// they belong to the ears and headphones rather than to the sound), applied alike to live
// playback and to exports so that what is exported is what was heard.
// - fadeIn: every start rises from silence over this many seconds (default 2 s).
// - limiter: a true-peak limiter on the master keeps the output at or below -1 dBTP.
// - balance: per-ear level matching in dB; positive turns the left ear down, negative the right
//   (only ever attenuates, so matching never makes anything louder).
// The sleep timer's fade and the export's loudness normalisation are chosen per use, not here.

import { z } from "zod";
import { BALANCE_MAX_DB, DEFAULT_LEVELS, FADE_IN_MAX_SECONDS, type Levels } from "../model/levels";

// The constants, DEFAULT_LEVELS and balanceGains live in a zod-free module the worklet can import.
export * from "../model/levels";

const clamp = (v: number, lo: number, hi: number): number => Math.min(hi, Math.max(lo, v));

/** Anything (stored JSON, a message) to valid levels: missing or wrong values take the defaults. */
export const levelsSchema: z.ZodType<Levels, unknown> = z
  .object({
    fadeIn: z.number().finite().optional().catch(undefined),
    limiter: z.boolean().optional().catch(undefined),
    balance: z.number().finite().optional().catch(undefined),
  })
  .catch({})
  .transform((l) => ({
    fadeIn: clamp(l.fadeIn ?? DEFAULT_LEVELS.fadeIn, 0, FADE_IN_MAX_SECONDS),
    limiter: l.limiter ?? DEFAULT_LEVELS.limiter,
    balance: Math.round(clamp(l.balance ?? 0, -BALANCE_MAX_DB, BALANCE_MAX_DB) * 10) / 10,
  }));

