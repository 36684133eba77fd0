// Duration box rules (spec/studio.md section 5): digits and colons only, at most 8 characters,
// HH:MM:SS, minutes and seconds capped at 59. What the user types is kept: a typed colon
// separates fields, and the value is read from the right like a timer ("1:30" is 90 s,
// "1:00:00" one hour, "90" 59 s). Digits typed without colons shift in from the right: the
// colons are inserted automatically ("130" shows "1:30", one more "0" gives "13:00").

import { durationWords } from "../../api/rules/plans";
import { MIN_DURATION_SECONDS } from "../../dsp/host/model/limits";

/** The box's maxLength: "HH:MM:SS". */
export const DURATION_MAX_CHARS = 8;
const FIELD_COUNT = 3;
const FIELD_DIGITS = 2;
/** Minutes and seconds are capped at 59 when read. */
const FIELD_MAX = 59;
const SECONDS_PER_MINUTE = 60;
const SECONDS_PER_HOUR = 3600;
const MAX_DIGITS = FIELD_COUNT * FIELD_DIGITS;

/** What the box shows for `raw`, the text after a keystroke or a paste. */
export function formatDurationInput(raw: string): string {
  const fields = raw.replace(/[^0-9:]/g, "").replace(/:+/g, ":").split(":");
  while (fields.length > FIELD_COUNT) fields.splice(0, 2, fields[0] + fields[1]);
  // Right to left: a field keeps its last two digits; the digits before them move into the field
  // on its left (a new one when there is room), as on a timer's display.
  for (let i = fields.length - 1; i >= 0; i--) {
    const field = fields[i];
    if (field.length <= FIELD_DIGITS) continue;
    const over = field.slice(0, -FIELD_DIGITS);
    fields[i] = field.slice(-FIELD_DIGITS);
    if (i > 0) {
      fields[i - 1] += over;
    } else if (fields.length < FIELD_COUNT) {
      fields.unshift(over);
      i++; // the new leftmost field may overflow in turn
    } else {
      return overflowed(raw);
    }
  }
  return fields.join(":");
}

/** More digits than HH:MM:SS holds (a paste): leading zeros go first, then the digits that do
 *  not fit at the end, and the rest is regrouped from the right. */
function overflowed(raw: string): string {
  let digits = raw.replace(/[^0-9]/g, "");
  while (digits.length > MAX_DIGITS && digits.startsWith("0")) digits = digits.slice(1);
  return formatDurationInput(digits.slice(0, MAX_DIGITS));
}

/** Seconds in what the box holds, read from the right; NaN when it holds no digit. */
export function parseDuration(text: string): number {
  const shown = formatDurationInput(text);
  if (!/[0-9]/.test(shown)) return NaN;
  const [s = 0, m = 0, h = 0] = shown.split(":").map(Number).reverse();
  return h * SECONDS_PER_HOUR + Math.min(m, FIELD_MAX) * SECONDS_PER_MINUTE + Math.min(s, FIELD_MAX);
}

/** A committed duration as HH:MM:SS. */
export function formatDuration(seconds: number): string {
  const h = Math.floor(seconds / SECONDS_PER_HOUR);
  const m = Math.floor((seconds % SECONDS_PER_HOUR) / SECONDS_PER_MINUTE);
  const s = Math.floor(seconds % SECONDS_PER_MINUTE);
  return [h, m, s].map((v) => String(v).padStart(FIELD_DIGITS, "0")).join(":");
}

/** The box's help line: the limits in words (the plans' "1 hour"), with the box's own HH:MM:SS of
 *  the maximum beside it, e.g. "Minimum 30 seconds, maximum 1 hour (01:00:00)." */
export function durationHelp(maxSeconds: number): string {
  return `Minimum ${durationWords(MIN_DURATION_SECONDS)}, maximum ${durationWords(maxSeconds)} (${formatDuration(maxSeconds)}).`;
}
