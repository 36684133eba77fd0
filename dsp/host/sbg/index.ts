// SBaGen schedules (.sbg): import into a studio session and export back. The public surface used by
// the studio, the editor's text view and the CLI; the mapping and its sources are documented in
// sbg-model.ts, the reader's time and fade rules in sbg-parse.ts, the writer's in sbg-write.ts.

export type { SbgIssue } from "./model";
export { DEFAULT_FADE_MS, SBG_MAX_CHARS, SBG_TAIL_SECONDS } from "./model";
export { parseSbg, SBG_NOT_TEXT, SBG_TOO_LONG, type SbgResult } from "./parse";
export { readSbgVoices, type ReadOptions } from "./voices";
export { toSbg } from "./write";
