// WAV export texts (spec/studio.md section 8) and file names (section 9): which failure gets which message.

import { describe, expect, it } from "vitest";
import {
  FILE_BUSY_ERROR, HANDOFF_ERROR, NO_CHANNEL_ALERT, NO_WORKER_FILES_ERROR, NOT_ALLOWED_ERROR, STORAGE_ERROR, STORAGE_UNKNOWN_ERROR,
  UNEXPECTED_ALERT, WORKER_STOPPED_ERROR, classifyExportError, exportFileName, memoryErrorMessage, memoryLimitMessage,
} from "../../../../web/export/messages";

describe("export messages", () => {
  it("uses the spec's exact texts", () => {
    expect(NO_CHANNEL_ALERT).toBe("Please enable at least one frequency channel before exporting.");
    expect(STORAGE_ERROR).toBe("Export failed due to storage limits. Free up disk space and try again.");
    expect(UNEXPECTED_ALERT).toBe("Export failed. Please try again.");
  });

  it("gives the storage text to a real quota failure only, whatever the message says", () => {
    for (const err of [
      new DOMException("The quota has been exceeded.", "QuotaExceededError"),
      { name: "QuotaExceededError", message: "Wrote 0 of 1048576 bytes", stage: "write" },
    ]) {
      expect(classifyExportError(err, 600)).toEqual({ kind: "toast", text: STORAGE_ERROR });
    }
    // Words in a message decide nothing: "storage" in an API's name, "memory" in WebKit's
    // UnknownError, "No space" in a plain Error.
    expect(classifyExportError(new Error("Failed to execute 'getDirectory' on 'StorageManager': Storage directory access is denied."), 60).text).not.toBe(STORAGE_ERROR);
    expect(classifyExportError(new Error("No space left on device"), 60).text).toBe("Export failed: No space left on device. Try refreshing and using a shorter duration.");
  });

  it("maps allocation failures (RangeError) to a 70% duration suggestion", () => {
    expect(classifyExportError(new RangeError("Array buffer allocation failed"), 3600)).toEqual({ kind: "toast", text: memoryErrorMessage(3600) });
    expect(memoryErrorMessage(3600)).toBe("Export ran out of memory. Try reducing the duration to about 70% (00:42:00) or use a desktop browser.");
  });

  it("chooses by name and stage: the file's stages get file texts, elsewhere the spec's other text", () => {
    const at = (stage: string, name: string, message = "m") => classifyExportError({ stage, name, message }, 60).text;
    expect(at("open", "UnknownError", "The operation failed for an unknown transient reason (e.g. out of memory).")).toBe(STORAGE_UNKNOWN_ERROR);
    expect(at("open", "NotSupportedError")).toBe(NO_WORKER_FILES_ERROR);
    expect(at("place", "NotAllowedError")).toBe(NOT_ALLOWED_ERROR);
    expect(at("write", "NoModificationAllowedError")).toBe(FILE_BUSY_ERROR);
    expect(at("close", "NotFoundError")).toBe(FILE_BUSY_ERROR);
    expect(at("handoff", "DataCloneError", "The object can not be cloned.")).toBe(HANDOFF_ERROR);
    expect(at("worker", "Error", "")).toBe(WORKER_STOPPED_ERROR);
    // The same names outside the file's stages are not file problems.
    expect(at("render", "NotSupportedError", "no")).toBe("Export failed: no. Try refreshing and using a shorter duration.");
  });

  it("without OPFS, names the memory limit, what fits and what works instead", () => {
    const err = { stage: "place", name: "ExportMemoryLimitError", message: "too big", limitBytes: 1 << 30 };
    expect(classifyExportError(err, 7200).text).toBe(memoryLimitMessage(1 << 30));
    expect(memoryLimitMessage(1 << 30)).toBe(
      "This browser gives the page no disk to write the file to (no Origin Private File System, as in private browsing), so the export has to fit in memory: up to 01:33:12 on this device. Export 01:33:12 or less, or use Chrome, Edge, Firefox or Safari outside private browsing for a longer file.",
    );
  });

  it("quotes other failures and falls back to the unexpected alert", () => {
    expect(classifyExportError(new Error("The export worker stopped."), 60)).toEqual({
      kind: "toast",
      text: "Export failed: The export worker stopped. Try refreshing and using a shorter duration.",
    });
    expect(classifyExportError(new Error("memory access out of bounds"), 60).text).toMatch(/^Export failed: memory access out of bounds\./);
    expect(classifyExportError(undefined, 60)).toEqual({ kind: "alert", text: UNEXPECTED_ALERT });
  });

  it("names files swizard-audio-{timestamp}.wav", () => {
    expect(exportFileName(new Date(2026, 0, 2, 3, 4, 5))).toBe("swizard-audio-2026-01-02_03-04-05.wav");
  });
});
