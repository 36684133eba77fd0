// The export-error classification (web/export/messages.ts) with the errors Chromium, Firefox and
// WebKit really threw (tests/unit/web/export/engine-errors.json, made by the engine smoke tests
// with TONE_STUDIO_WRITE_ENGINE_ERRORS=1: tests/e2e/engines/engine-errors.ts). The same name
// gets the same text in every engine, whatever each engine's message says.

import { describe, expect, it } from "vitest";
import {
  classifyExportError, FILE_BUSY_ERROR, HANDOFF_ERROR, memoryErrorMessage, STORAGE_ERROR, STORAGE_UNKNOWN_ERROR,
} from "../../../../web/export/messages";
import recorded from "./engine-errors.json";

interface Recorded { case: string; stage: string; name: string; message: string; dom: boolean }
const ENGINES = recorded as Record<string, Recorded[]>;

/** The error object again: a DOMException of that name, or the ECMAScript error class. */
function rebuild(e: Recorded): Error {
  if (e.dom) return new DOMException(e.message, e.name);
  const Ctor = (globalThis as unknown as Record<string, ErrorConstructor>)[e.name] ?? Error;
  return new Ctor(e.message);
}

const TEXT: Record<string, string> = {
  QuotaExceededError: STORAGE_ERROR,
  DataCloneError: HANDOFF_ERROR,
  RangeError: memoryErrorMessage(600),
  NotFoundError: FILE_BUSY_ERROR,
  UnknownError: STORAGE_UNKNOWN_ERROR,
};

describe("export errors as each engine throws them", () => {
  it("holds all three engines' errors", () => {
    expect(Object.keys(ENGINES).sort()).toEqual(["chromium", "firefox", "webkit", "webkit-private"]);
  });

  for (const [engine, errors] of Object.entries(ENGINES)) {
    it(`${engine}: each error gets the text its name and stage call for`, () => {
      for (const e of errors) {
        const err = Object.assign(rebuild(e), { stage: e.stage });
        expect(err.name).toBe(e.name);
        expect(classifyExportError(err, 600).text, `${engine}: ${e.case} (${e.name}: ${e.message})`).toBe(TEXT[e.name]);
      }
    });
  }

  it("WebKit's UnknownError (its message says 'out of memory') is a storage failure, not memory, not the quota", () => {
    const unknown = ENGINES["webkit-private"].find((e) => e.name === "UnknownError")!;
    expect(unknown.message).toMatch(/out of memory/);
    const text = classifyExportError(Object.assign(rebuild(unknown), { stage: "open" }), 600).text;
    expect(text).toBe(STORAGE_UNKNOWN_ERROR);
    expect(text).not.toBe(memoryErrorMessage(600));
    expect(text).not.toBe(STORAGE_ERROR);
  });

  it("WebKit's DataCloneError for a file handle is not 'use a shorter duration'", () => {
    const clone = ENGINES.webkit.find((e) => e.case === "postMessage of an OPFS file handle")!;
    const text = classifyExportError(Object.assign(rebuild(clone), { stage: "handoff" }), 600).text;
    expect(text).toBe(HANDOFF_ERROR);
    expect(text).not.toMatch(/shorter duration/);
  });
});
