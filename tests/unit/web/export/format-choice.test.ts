// The export format remembered per user (web/export/format-choice.ts): an MP3 choice keeps its
// constant bitrate or its VBR preset, what storage holds from another build or by hand (a VBR
// quality the studio does not offer, an unknown format) falls back to WAV 16-bit, and each choice
// becomes the encoder's settings.

import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { DEFAULT_CHOICE, STUDIO_MP3_VBR, readChoice, settingsOf, writeChoice } from "../../../../web/export/format-choice";

const KEY = "tone-studio:export-format:";
let store: Map<string, string>;

beforeEach(() => {
  store = new Map();
  (globalThis as { localStorage?: unknown }).localStorage = {
    getItem: (k: string) => store.get(k) ?? null,
    setItem: (k: string, v: string) => void store.set(k, v),
  };
});
afterEach(() => {
  delete (globalThis as { localStorage?: unknown }).localStorage;
});

describe("the export format choice", () => {
  it("remembers an MP3 VBR preset per user, and gives LAME's VBR settings for it", () => {
    writeChoice("u1", { format: "mp3", mp3Vbr: 2 });
    writeChoice("u2", { format: "mp3", mp3Kbps: 192 });
    expect(readChoice("u1")).toEqual({ format: "mp3", mp3Vbr: 2 });
    expect(settingsOf(readChoice("u1"))).toEqual({ format: "mp3", mp3: { kind: "vbr", quality: 2 } });
    expect(settingsOf(readChoice("u2"))).toEqual({ format: "mp3", mp3: { kind: "cbr", kbps: 192 } });
    expect(readChoice(null)).toEqual(DEFAULT_CHOICE);
  });

  it("offers V0, V2 and V5, and falls back to WAV 16-bit for anything else in storage", () => {
    expect([...STUDIO_MP3_VBR]).toEqual([0, 2, 5]);
    for (const raw of ['{"format":"mp3","mp3Vbr":3}', '{"format":"mp3","mp3Kbps":100}', '{"format":"ogg"}', "not json"]) {
      store.set(`${KEY}u3`, raw);
      expect(readChoice("u3"), raw).toEqual(DEFAULT_CHOICE);
    }
  });

  it("an MP3 with no bitrate stored is 320 kbps", () => {
    expect(settingsOf({ format: "mp3" })).toEqual({ format: "mp3", mp3: { kind: "cbr", kbps: 320 } });
  });
});
