// WAV export texts (spec/studio.md section 8), the file name (section 9) and the mapping from a
// failure to the message the user sees. A failure is told by its error's name (a DOMException's
// name is the same in every engine; its message is not, and WebKit's UnknownError message even
// says "out of memory" for a storage refusal) and by the stage it happened at
// (web/export/export-runner.ts ExportError), never by words in the message. The spec's texts are
// used where it has one (a real quota, memory, anything else with a message, nothing known); the
// cases it does not foresee get plain texts of their own.

import { formatDuration } from "../state/duration";

export const NO_CHANNEL_ALERT = "Please enable at least one frequency channel before exporting.";
export const STORAGE_ERROR = "Export failed due to storage limits. Free up disk space and try again.";
export const UNEXPECTED_ALERT = "Export failed. Please try again.";

/** Spec 8: a memory error suggests about 70% of the duration or a desktop browser. */
export function memoryErrorMessage(duration: number): string {
  const shorter = formatDuration(Math.max(1, Math.floor(duration * 0.7)));
  return `Export ran out of memory. Try reducing the duration to about 70% (${shorter}) or use a desktop browser.`;
}

/** Without OPFS the file is kept in memory, up to `limitBytes`: what fits, and what works instead. */
export function memoryLimitMessage(limitBytes: number): string {
  const fits = formatDuration(Math.max(1, Math.floor((limitBytes - 44) / 192_000)));
  return `This browser gives the page no disk to write the file to (no Origin Private File System, as in private browsing), so the export has to fit in memory: up to ${fits} on this device. Export ${fits} or less, or use Chrome, Edge, Firefox or Safari outside private browsing for a longer file.`;
}

/** The job could not be handed to the export worker (postMessage refused it: DataCloneError). */
export const HANDOFF_ERROR = "Export failed: this browser could not pass the export to its background worker. Reload the page and try again, or use another browser.";
/** Writing was refused (a revoked or denied permission, a blocked folder). */
export const NOT_ALLOWED_ERROR = "Export failed: the browser did not allow writing the file. Choose another place to save it, or allow storage for this site, and try again.";
/** The file was removed or taken by something else (another tab's export) while being written. */
export const FILE_BUSY_ERROR = "Export failed: the file was removed or in use while it was being written. Close other tabs exporting from this site and try again.";
/** The browser has OPFS but will not let a worker write to it, and the file is too big for memory. */
export const NO_WORKER_FILES_ERROR = "Export failed: this browser cannot write files from a background worker. Update the browser, or use Chrome, Edge or Firefox.";
/** The browser's storage failed without saying why (WebKit's UnknownError) while writing. */
export const STORAGE_UNKNOWN_ERROR = "Export failed: the browser's storage stopped while writing the file, without saying why. Try again; if it happens again, restart the browser.";
/** The worker stopped by itself (the browser ended it, usually for lack of memory). */
export const WORKER_STOPPED_ERROR = "Export failed: the browser stopped the export while it ran. Reload the page and try again, or try a shorter duration.";

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

/** What the classification reads of a failure: export-runner.ts's ExportError, a DOMException,
 *  an Error, or anything else thrown. */
function describe(err: unknown): { name: string; message: string; stage: string; limitBytes?: number } {
  if (err && typeof err === "object") {
    const e = err as { name?: unknown; message?: unknown; stage?: unknown; limitBytes?: unknown };
    return {
      name: typeof e.name === "string" ? e.name : "",
      message: typeof e.message === "string" ? e.message : "",
      stage: typeof e.stage === "string" ? e.stage : "",
      limitBytes: typeof e.limitBytes === "number" ? e.limitBytes : undefined,
    };
  }
  return { name: "", message: typeof err === "string" ? err : "", stage: "" };
}

/** Which message a failure gets, chosen by its error's name and the stage it failed at. */
export function classifyExportError(err: unknown, duration: number): ExportFailure {
  const { name, message, stage, limitBytes } = describe(err);
  const toast = (text: string): ExportFailure => ({ kind: "toast", text });
  const fileStage = stage === "place" || stage === "open" || stage === "write" || stage === "close";
  switch (name) {
    // The quota really is the cause: the origin's quota or the disk (a short write says so too).
    case "QuotaExceededError":
      return toast(STORAGE_ERROR);
    case "ExportMemoryLimitError":
      return toast(limitBytes ? memoryLimitMessage(limitBytes) : memoryErrorMessage(duration));
    // An allocation that failed: an ArrayBuffer, the engine's WebAssembly memory, a Blob.
    case "RangeError":
      return toast(memoryErrorMessage(duration));
    case "DataCloneError":
      return toast(HANDOFF_ERROR);
    case "NotAllowedError":
    case "SecurityError":
      if (fileStage) return toast(NOT_ALLOWED_ERROR);
      break;
    case "NotFoundError":
    case "NoModificationAllowedError":
    case "InvalidStateError":
      if (fileStage) return toast(FILE_BUSY_ERROR);
      break;
    case "NotSupportedError":
      if (fileStage) return toast(NO_WORKER_FILES_ERROR);
      break;
    case "UnknownError":
      if (fileStage) return toast(STORAGE_UNKNOWN_ERROR);
      break;
  }
  if (stage === "worker") return toast(WORKER_STOPPED_ERROR);
  if (message.trim() !== "") return toast(otherErrorMessage(message));
  return { kind: "alert", text: UNEXPECTED_ALERT };
}
