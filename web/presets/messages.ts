// The texts of sharing, opening shared presets and the random sound, verbatim from
// spec/studio.md section 8 (the not-found text is shared with the API, api/rules/texts.ts).

import { PRESET_TEXT } from "../../api/rules/texts";

export const PRESET_MESSAGES = {
  shared: "Preset shared! Link copied to clipboard",
  shareFailed: "Failed to share preset. Please try again.",
  /** Not in the spec: the preset was stored but the browser refused the clipboard. */
  copyFailed: "Preset shared, but the link could not be copied. Copy it from the Share link field.",
  loadedFromLink: "Preset loaded from shared link!",
  loaded: "Preset loaded successfully!",
  notFound: PRESET_TEXT.notFound,
  linkFailed: "Failed to load shared preset",
  loadFailed: "Failed to load preset",
  randomDone: "Random sound generated! Press play to listen.",
  randomFailed: (reason: string) => `Failed to generate random sound: ${reason}`,
} as const;
