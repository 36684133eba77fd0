// Safe listening levels: the listener's own settings (kept on the device, not in presets, since
// they belong to the ears and headphones rather than to the sound), applied alike to live
// playback and to exports so that what is exported is what was heard.
// - fadeIn: every start rises from silence over this many seconds (default 2 s).
// - limiter: a true-peak limiter on the master keeps the output at or below -1 dBTP.
// - balance: per-ear level matching in dB; positive turns the left ear down, negative the right
//   (only ever attenuates, so matching never makes anything louder).
// The sleep timer's fade and the export's loudness normalisation are chosen per use, not here.

import { z } from "zod";

export const FADE_IN_DEFAULT_SECONDS = 2;
export const FADE_IN_MAX_SECONDS = 30;
export const BALANCE_MAX_DB = 12;
/** The limiter's ceiling in dBTP (true peak, ITU-R BS.1770-4 annex 2). */
export const LIMITER_CEILING_DBTP = -1;
/** Loudness-normalised exports aim at this integrated loudness (LUFS). */
export const NORMALISED_LUFS = -16;
/** The sleep timer's default fade-out, and its longest. */
export const SLEEP_FADE_DEFAULT_SECONDS = 30;
export const SLEEP_FADE_MAX_SECONDS = 600;

export interface Levels {
  fadeIn: number;
  limiter: boolean;
  balance: number;
}

export const DEFAULT_LEVELS: Levels = { fadeIn: FADE_IN_DEFAULT_SECONDS, limiter: true, balance: 0 };

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

/** The per-ear gains (linear) for a balance in dB. */
export function balanceGains(balanceDb: number): { left: number; right: number } {
  const b = clamp(Number.isFinite(balanceDb) ? balanceDb : 0, -BALANCE_MAX_DB, BALANCE_MAX_DB);
  return { left: b > 0 ? Math.pow(10, -b / 20) : 1, right: b < 0 ? Math.pow(10, b / 20) : 1 };
}
