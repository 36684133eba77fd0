// The listening levels' constants and rules, free of zod so that the audio worklet's bundle can
// import them (dsp/host/engine.ts). dsp/host/schema/levels.ts re-exports all of it with the schema; import
// from there everywhere else.

export const FADE_IN_DEFAULT_SECONDS = 2;
export const FADE_IN_MAX_SECONDS = 30;
export const BALANCE_MAX_DB = 12;
/** The limiter's ceiling in dBTP (true peak, ITU-R BS.1770-4 annex 2); defined in limits.ts,
 *  which the engine compiles too. */
export { LIMITER_CEILING_DBTP } from "./limits";
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

/** The per-ear gains (linear) for a balance in dB. */
export function balanceGains(balanceDb: number): { left: number; right: number } {
  const b = clamp(Number.isFinite(balanceDb) ? balanceDb : 0, -BALANCE_MAX_DB, BALANCE_MAX_DB);
  return { left: b > 0 ? Math.pow(10, -b / 20) : 1, right: b < 0 ? Math.pow(10, b / 20) : 1 };
}
