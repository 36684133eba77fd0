// Mp3FrameSplitter (dsp/host/export/mp3-vbr.ts) cuts LAME's byte stream into whole MPEG frames for
// the muxer, wherever the encoder's outputs happen to end: a frame or a header split across two
// pushes comes out whole, bytes that are no frame are an error, and a partial frame left at the
// end is an error rather than a file cut short.

import { describe, expect, it } from "vitest";
import { Mp3FrameSplitter, mp3FrameLength } from "../../../../../dsp/host/export/mp3-vbr";
import { inlineVbrLame } from "../../../../../dsp/host/export/mp3-vbr-inline";

/** A frame of `kbps` at 48 kHz (MPEG-1 Layer III, stereo), `fill` in its body. */
function frame(kbpsIndex: number, padding: 0 | 1, fill: number): Uint8Array {
  const kbps = [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320][kbpsIndex];
  const len = Math.floor((144000 * kbps) / 48000) + padding;
  const f = new Uint8Array(len).fill(fill);
  f.set([0xff, 0xfb, (kbpsIndex << 4) | (1 << 2) | (padding << 1), 0x00]);
  return f;
}

describe("mp3FrameLength", () => {
  it("reads MPEG-1 Layer III frame lengths at 48 kHz, with the padding byte", () => {
    expect(mp3FrameLength(frame(14, 0, 0), 0)).toBe(960); // 320 kbps
    expect(mp3FrameLength(frame(9, 1, 0), 0)).toBe(385); // 128 kbps, padded
    expect(mp3FrameLength(Uint8Array.of(0xff, 0xfb, 0xf4, 0), 0)).toBeNull(); // bitrate index 15: invalid
    expect(mp3FrameLength(Uint8Array.of(0x49, 0x44, 0x33, 0), 0)).toBeNull(); // "ID3"
  });
});

describe("Mp3FrameSplitter", () => {
  it("gives back whole frames however the stream is cut", () => {
    const frames = [frame(14, 0, 1), frame(9, 1, 2), frame(11, 0, 3), frame(5, 0, 4)];
    const stream = new Uint8Array(frames.reduce((n, f) => n + f.length, 0));
    frames.reduce((at, f) => (stream.set(f, at), at + f.length), 0);
    for (const cuts of [[1], [2, 961], [960, 961, 1345], [3, 500, 1400, 1900]]) {
      const splitter = new Mp3FrameSplitter();
      const out: Uint8Array[] = [];
      let from = 0;
      for (const to of [...cuts, stream.length]) {
        out.push(...splitter.push(stream.slice(from, to)).map((f) => f.slice()));
        from = to;
      }
      splitter.end();
      expect(out.map((f) => [f.length, f[4]])).toEqual(frames.map((f) => [f.length, f[4]]));
    }
  });

  it("refuses bytes that are no frame, and a frame left unfinished", () => {
    expect(() => new Mp3FrameSplitter().push(Uint8Array.of(0, 1, 2, 3, 4, 5))).toThrow(/not an MPEG-1 Layer III frame at 0/);
    const s = new Mp3FrameSplitter();
    expect(s.push(frame(14, 0, 1).subarray(0, 500))).toEqual([]);
    expect(() => s.end()).toThrow(/last 500 bytes are not a whole frame/);
  });

  it("cuts LAME's own VBR output into frames that add up to every byte", async () => {
    const lame = await inlineVbrLame(2);
    const pcm = Int16Array.from({ length: 2 * 48000 }, (_, i) => Math.round(8000 * Math.sin((2 * Math.PI * 440 * (i >> 1)) / 48000)));
    const splitter = new Mp3FrameSplitter();
    let bytes = 0;
    let frames = 0;
    for (const part of [await lame.encode(pcm.subarray(0, 40000)), await lame.encode(pcm.subarray(40000)), await lame.finalize()]) {
      bytes += part.length;
      for (const f of splitter.push(part)) {
        frames++;
        bytes -= f.length;
      }
    }
    splitter.end();
    expect(bytes).toBe(0);
    // One second is 41.7 frames of 1152 samples, plus LAME's delay and its flush.
    expect(frames).toBeGreaterThanOrEqual(42);
    expect(frames).toBeLessThan(46);
  });
});
