// The Recordings panel's helpers: the take's WAV round trip (what the studio uploads is what the
// engine gets back), stereo read as mono, the microphone's failures mapped to the panel's texts,
// and the shared preset a page was opened from.

import { describe, expect, it } from "vitest";
import { clipFromWav, clock, monoWav, toPcm16 } from "../../../../web/recordings/wav";
import { micError } from "../../../../web/recordings/capture";
import { MIC_BUSY, MIC_MISSING, MIC_REFUSED, MIC_UNAVAILABLE } from "../../../../web/recordings/messages";
import { sharedPresetId } from "../../../../web/recordings/store";
import { parseWavHeader } from "../../../../dsp/host/export/wav";

describe("recordings helpers", () => {
  it("writes a take as a 16-bit mono WAV at 48 kHz and reads the same samples back", () => {
    const pcm = toPcm16(Float32Array.from({ length: 4800 }, (_, i) => Math.sin(i / 10) * 0.5));
    const wav = monoWav(pcm);
    expect(parseWavHeader(wav)).toMatchObject({ formatTag: 1, channels: 1, sampleRate: 48000, bitsPerSample: 16, frames: 4800, dataOffset: 44 });
    const clip = clipFromWav("id-1", wav);
    expect(clip).toMatchObject({ id: "id-1", rate: 48000, frames: 4800 });
    expect(Array.from(clip.pcm)).toEqual(Array.from(pcm));
  });

  it("rounds and clamps floats to 16 bits", () => {
    expect(Array.from(toPcm16(Float32Array.from([0, 1, -1, 2, -2, 0.5])))).toEqual([0, 32767, -32767, 32767, -32768, 16384]);
  });

  it("reads a stereo recording as the mean of its ears", () => {
    const wav = monoWav(new Int16Array([100, 300, -50, 50]));
    const v = new DataView(wav.buffer);
    v.setUint16(22, 2, true); // two channels: two frames of (L, R)
    v.setUint32(28, 48000 * 4, true);
    v.setUint16(32, 4, true);
    expect(Array.from(clipFromWav("s", wav).pcm)).toEqual([200, 0]);
  });

  it("says why the microphone could not be opened", () => {
    expect(micError(new DOMException("no", "NotAllowedError"))).toBe(MIC_REFUSED);
    expect(micError(new DOMException("no", "NotFoundError"))).toBe(MIC_MISSING);
    expect(micError(new DOMException("no", "NotReadableError"))).toBe(MIC_BUSY);
    expect(micError(new Error("?"))).toBe(MIC_UNAVAILABLE);
  });

  it("knows the shared preset a page was opened from", () => {
    expect(sharedPresetId("/preset/abc_DEF-123")).toBe("abc_DEF-123");
    expect(sharedPresetId("/")).toBeUndefined();
    expect(sharedPresetId("/preset/a/b")).toBeUndefined();
    expect(clock(75.9)).toBe("1:15");
  });
});
