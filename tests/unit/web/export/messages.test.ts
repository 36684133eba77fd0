// WAV export texts (spec/studio.md section 8) and file names (section 9): which failure gets which message.

import { describe, expect, it } from "vitest";
import {
  NO_CHANNEL_ALERT, STORAGE_ERROR, UNEXPECTED_ALERT, classifyExportError, exportFileName, memoryErrorMessage,
} from "../../../../web/export/messages";

describe("export messages", () => {
  it("uses the spec's exact texts", () => {
    expect(NO_CHANNEL_ALERT).toBe("Please enable at least one frequency channel before exporting.");
    expect(STORAGE_ERROR).toBe("Export failed due to storage limits. Free up disk space and try again.");
    expect(UNEXPECTED_ALERT).toBe("Export failed. Please try again.");
  });

  it("maps quota and storage failures to the storage text", () => {
    for (const err of [
      { name: "QuotaExceededError", message: "The quota has been exceeded." },
      new Error("No space left on device"),
      new Error("Storage is full"),
    ]) {
      expect(classifyExportError(err, 600)).toEqual({ kind: "toast", text: STORAGE_ERROR });
    }
  });

  it("maps memory failures to a 70% duration suggestion", () => {
    expect(classifyExportError(new RangeError("Array buffer allocation failed"), 3600)).toEqual({ kind: "toast", text: memoryErrorMessage(3600) });
    expect(memoryErrorMessage(3600)).toBe("Export ran out of memory. Try reducing the duration to about 70% (00:42:00) or use a desktop browser.");
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
