// The soundtrack decoders' chunks are kept out of the precache and cached on first use: the
// service worker's test picks exactly those hashed asset paths.

import { describe, expect, it } from "vitest";
import { isSoundtrackDecoder } from "../../../../web/pwa/messages";

describe("isSoundtrackDecoder", () => {
  it("matches the decoders' hashed chunks and nothing else", () => {
    for (const p of ["/assets/flac-7hUUx-QY.js", "/assets/libsamplerate-TNhcSo7A.js", "/assets/ogg-vorbis-DwMnOAYT.js", "/assets/mpg123-decoder-PzuYpJ8Y.js", "/assets/codec-parser-CmjaWPQh.js"]) {
      expect(isSoundtrackDecoder(p), p).toBe(true);
    }
    for (const p of ["/assets/index-CfA1Rb5k.js", "/assets/engine-CUT4m6sL.wasm", "/api/flac-1.js", "/assets/flac-7hUUx-QY.js.map", "/assets/sub/flac-a.js"]) {
      expect(isSoundtrackDecoder(p), p).toBe(false);
    }
  });
});
