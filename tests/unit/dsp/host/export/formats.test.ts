// The export formats' one table (dsp/host/export/formats.ts): extensions, the exact message for
// a file name no format answers, bit depths and size estimates.

import { describe, expect, it } from "vitest";
import {
  EXPORT_FORMATS, EXPORT_FORMAT_IDS, UnknownFormatError, bitsOf, bytesPerSecond, describeSettings, estimatedBytes, fileNameFor,
  formatForFile, unknownExtensionMessage,
} from "../../../../../dsp/host/export/formats";

describe("export formats", () => {
  it("picks the format by the file name's extension, any case, and the depth by bits", () => {
    expect(formatForFile("session.wav")).toBe("wav16");
    expect(formatForFile("session.WAV", 24)).toBe("wav24");
    expect(formatForFile("/tmp/a.b/session.flac")).toBe("flac16");
    expect(formatForFile("session.flac", 24)).toBe("flac24");
    expect(formatForFile("session.Mp3")).toBe("mp3");
    expect(formatForFile("session.opus")).toBe("opus");
  });

  it("answers any other name with one exact message", () => {
    expect(() => formatForFile("session.ogg")).toThrow(UnknownFormatError);
    expect(unknownExtensionMessage("session.ogg")).toBe('Unknown file type ".ogg": the export formats are .wav, .flac, .mp3 and .opus.');
    expect(unknownExtensionMessage("/tmp/a.b/session")).toBe('No file type in "/tmp/a.b/session": the export formats are .wav, .flac, .mp3 and .opus.');
    expect(() => formatForFile("x.aiff")).toThrow('Unknown file type ".aiff": the export formats are .wav, .flac, .mp3 and .opus.');
  });

  it("names each format's extension, MIME type and depth", () => {
    expect(EXPORT_FORMAT_IDS).toEqual(["wav16", "wav24", "flac16", "flac24", "mp3", "opus"]);
    expect(EXPORT_FORMATS.flac24).toMatchObject({ extension: ".flac", mimeType: "audio/flac", pcm: "s24", lossless: true });
    expect(EXPORT_FORMATS.opus.mimeType).toBe("audio/ogg; codecs=opus");
    expect(bitsOf("wav24")).toBe(24);
    expect(bitsOf("flac16")).toBe(16);
    expect(bitsOf("mp3")).toBeNull();
    expect(fileNameFor("session.wav", "flac24")).toBe("session.flac");
    expect(fileNameFor("session", "opus")).toBe("session.opus");
  });

  it("estimates sizes: exact for WAV and CBR, the bitrate for Opus", () => {
    expect(estimatedBytes({ format: "wav16" }, 3600)).toBe(691_200_000);
    expect(estimatedBytes({ format: "wav24" }, 3600)).toBe(1_036_800_000);
    expect(bytesPerSecond({ format: "mp3", mp3: { kind: "cbr", kbps: 128 } })).toBe(16000);
    expect(bytesPerSecond({ format: "mp3" })).toBe(40000);
    expect(bytesPerSecond({ format: "opus", opusKbps: 160 })).toBeCloseTo(20200, 0);
    for (const format of EXPORT_FORMAT_IDS) expect(bytesPerSecond({ format })).toBeLessThanOrEqual(bytesPerSecond({ format: "wav24" }));
    expect(describeSettings({ format: "mp3", mp3: { kind: "vbr", quality: 2 } })).toBe("MP3 VBR V2");
    expect(describeSettings({ format: "opus" })).toBe("Opus 160 kbps");
  });
});
