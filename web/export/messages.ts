// WAV export texts (spec/studio.md section 8), the file name (section 9) and the mapping from a
// failure to the message the user sees.

import { formatDuration } from "../state/duration";

export const NO_CHANNEL_ALERT = "Please enable at least one frequency channel before exporting.";
export const STORAGE_ERROR = "Export failed due to storage limits. Free up disk space and try again.";
export const UNEXPECTED_ALERT = "Export failed. Please try again.";

/** Spec 8: a memory error suggests about 70% of the duration or a desktop browser. */
export function memoryErrorMessage(duration: number): string {
  const shorter = formatDuration(Math.max(1, Math.floor(duration * 0.7)));
  return `Export ran out of memory. Try reducing the duration to about 70% (${shorter}) or use a desktop browser.`;
}

export function otherErrorMessage(message: string): string {
  return `Export failed: ${message.replace(/\.\s*$/, "")}. Try refreshing and using a shorter duration.`;
}

/** swizard-audio-{timestamp}.wav, the timestamp in local time as YYYY-MM-DD_HH-MM-SS. */
export function exportFileName(now = new Date()): string {
  const p = (n: number) => String(n).padStart(2, "0");
  const stamp = `${now.getFullYear()}-${p(now.getMonth() + 1)}-${p(now.getDate())}_${p(now.getHours())}-${p(now.getMinutes())}-${p(now.getSeconds())}`;
  return `swizard-audio-${stamp}.wav`;
}

export type ExportFailure = { kind: "alert"; text: string } | { kind: "toast"; text: string };

function describe(err: unknown): { name: string; message: string } {
  if (err && typeof err === "object") {
    const e = err as { name?: unknown; message?: unknown };
    return { name: typeof e.name === "string" ? e.name : "", message: typeof e.message === "string" ? e.message : "" };
  }
  return { name: "", message: typeof err === "string" ? err : "" };
}

/** Which spec message a failure gets. Errors cross the worker boundary as { name, message }. */
export function classifyExportError(err: unknown, duration: number): ExportFailure {
  const { name, message } = describe(err);
  if (name === "QuotaExceededError" || /quota|storage|no space|disk (is )?full|not enough space/i.test(message)) {
    return { kind: "toast", text: STORAGE_ERROR };
  }
  if (/out of memory|allocation failed|cannot allocate|memory/i.test(message) && !/memory access out of bounds/i.test(message)) {
    return { kind: "toast", text: memoryErrorMessage(duration) };
  }
  if (message.trim() !== "") return { kind: "toast", text: otherErrorMessage(message) };
  return { kind: "alert", text: UNEXPECTED_ALERT };
}
