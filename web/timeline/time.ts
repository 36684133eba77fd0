// Step times as the editor shows and reads them: HH:MM:SS from the session's start, with a
// fraction of a second only when the step has one (the model keeps milliseconds: .sbg imports
// and share links may carry them). Unlike the duration box, which reads digits from the right
// like a timer, a step time is read as written: "6" is 6 s, "1:30" 90 s, "0:40:00" 40 minutes.

import { MAX_DURATION_UNLIMITED_SECONDS } from "../../dsp/host/model/limits";
import { BAD_TIME, TIME_TOO_LATE } from "./messages";

const pad = (v: number) => String(v).padStart(2, "0");

/** "00:00:06", "01:20:00", "00:00:02.5". */
export function formatStepTime(seconds: number): string {
  const ms = Math.round(Math.max(0, seconds) * 1000);
  const whole = Math.floor(ms / 1000);
  const frac = ms % 1000;
  const text = `${pad(Math.floor(whole / 3600))}:${pad(Math.floor((whole % 3600) / 60))}:${pad(whole % 60)}`;
  return frac === 0 ? text : `${text}.${String(frac).padStart(3, "0").replace(/0+$/, "")}`;
}

/** A short label for axis ticks: "0:30", "12:00", "1:05:00". */
export function formatTickTime(seconds: number): string {
  const s = Math.round(seconds);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  return h > 0 ? `${h}:${pad(m)}:${pad(s % 60)}` : `${m}:${pad(s % 60)}`;
}

export type ParsedTime = { ok: true; seconds: number } | { ok: false; error: string };

/** Reads "SS", "MM:SS" or "HH:MM:SS" (seconds may have a fraction); minutes and seconds below 60
 *  when a larger field stands before them. */
export function parseStepTime(text: string): ParsedTime {
  const m = /^\s*(?:(?:(\d{1,2}):)?(\d{1,2}):)?(\d{1,5}(?:\.\d{1,3})?)\s*$/.exec(text);
  if (!m) return { ok: false, error: BAD_TIME };
  const [h, min, s] = [m[1], m[2], m[3]].map((v) => (v === undefined ? 0 : Number(v)));
  if ((m[2] !== undefined && s >= 60) || (m[1] !== undefined && min >= 60)) return { ok: false, error: BAD_TIME };
  const seconds = Math.round((h * 3600 + min * 60 + s) * 1000) / 1000;
  if (seconds > MAX_DURATION_UNLIMITED_SECONDS) return { ok: false, error: TIME_TOO_LATE };
  return { ok: true, seconds };
}
