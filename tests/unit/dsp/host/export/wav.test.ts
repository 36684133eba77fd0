// The WAV container (dsp/host/export/wav.ts), the engine's PCM16 + TPDF dither (Engine.renderPcm16) and the
// export renderer (dsp/host/export/render.ts) in Node:
// RIFF headers read back by our parser and ffprobe, and decoded by ffmpeg to the very samples we
// wrote; RF64 headers for > 4 GiB checked field by field (and read by ffprobe and decoded by ffmpeg
// from a truncated file, so no gigabytes are written); a 10 s
// render decodes back to the engine's float output within the dither's ±1.5 LSB; determinism.

import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { requireBinary } from "../../../../../api/platform/binaries";
import { DEFAULT_CHUNK_BYTES, WavRenderer, exportPlan } from "../../../../../dsp/host/export/render";
import { createNodeEngine } from "../../../../../dsp/host/node";
import { defaultAudioState } from "../../../../../dsp/host/schema/state";
import {
  PCM16_SCALE, PCM24_SCALE, RF64_HEADER_BYTES, RIFF_HEADER_BYTES, needsRf64, parseWavHeader, wavHeader,
} from "../../../../../dsp/host/export/wav";
import { FS, peakFrequency, renderFrames, singleTone } from "../../assembly/helpers";

let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "wav-test-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Renders an export of `state` for `seconds` into one buffer (small durations only). */
function exportBytes(state = singleTone(1000), seconds = 1, chunkBytes = DEFAULT_CHUNK_BYTES): Uint8Array {
  const r = new WavRenderer(createNodeEngine(FS), state, seconds);
  const out = new Uint8Array(r.plan.totalBytes);
  let pos = 0;
  for (const chunk of r.chunks(chunkBytes)) {
    out.set(chunk, pos);
    pos += chunk.byteLength;
  }
  expect(pos).toBe(r.plan.totalBytes);
  return out;
}

function ascii(bytes: Uint8Array, offset: number): string {
  return String.fromCharCode(...bytes.subarray(offset, offset + 4));
}

function ffprobe(file: string): { stream: Record<string, string | number>; format: Record<string, string> } {
  const json = JSON.parse(
    execFileSync(requireBinary("ffprobe").path, [
      "-v", "error", "-show_entries",
      "stream=codec_name,sample_rate,channels,bits_per_sample,duration_ts,duration:format=format_name,duration,size",
      "-of", "json", file,
    ], { encoding: "utf8" }),
  );
  return { stream: json.streams[0], format: json.format };
}

/** The file's samples as ffmpeg decodes them (16-bit little-endian, interleaved, no header). */
function ffmpegSamples(file: string): Buffer {
  return execFileSync(requireBinary("ffmpeg").path, ["-v", "error", "-i", file, "-f", "s16le", "-c:a", "pcm_s16le", "pipe:1"], { maxBuffer: 64 << 20 });
}

describe("RIFF header (up to 4 GiB)", () => {
  it("is the standard 44-byte PCM header, read back by our parser", () => {
    const bytes = exportBytes(singleTone(1000), 1);
    expect(bytes.byteLength).toBe(44 + 48000 * 4);
    const v = new DataView(bytes.buffer);
    expect(ascii(bytes, 0)).toBe("RIFF");
    expect(v.getUint32(4, true)).toBe(bytes.byteLength - 8);
    expect(ascii(bytes, 8)).toBe("WAVE");
    expect(ascii(bytes, 12)).toBe("fmt ");
    expect(ascii(bytes, 36)).toBe("data");
    expect(parseWavHeader(bytes)).toEqual({
      container: "RIFF", riffSize: bytes.byteLength - 8, formatTag: 1, channels: 2, sampleRate: 48000, byteRate: 192000,
      blockAlign: 4, bitsPerSample: 16, dataOffset: 44, dataBytes: 192000, frames: 48000,
    });
  });

  it("is read by ffprobe", () => {
    const file = join(dir, "short.wav");
    writeFileSync(file, exportBytes(singleTone(1000), 2));
    const { stream, format } = ffprobe(file);
    expect(format.format_name).toBe("wav");
    expect(stream.codec_name).toBe("pcm_s16le");
    expect(stream.sample_rate).toBe("48000");
    expect(stream.channels).toBe(2);
    expect(stream.bits_per_sample).toBe(16);
    expect(stream.duration_ts).toBe(96000);
    expect(Number(format.duration)).toBe(2);
  });

  it("is decoded by ffmpeg to exactly the samples written after the header", () => {
    const file = join(dir, "short-decoded.wav");
    const bytes = exportBytes(singleTone(1000), 2);
    writeFileSync(file, bytes);
    const samples = ffmpegSamples(file);
    expect(samples.byteLength).toBe(96000 * 4);
    expect(samples.equals(Buffer.from(bytes.subarray(RIFF_HEADER_BYTES)))).toBe(true);
  });

  it("switches to RF64 exactly when the RIFF size no longer fits in 32 bits", () => {
    const largestRiffData = 0xffffffff - 36 - ((0xffffffff - 36) % 4);
    expect(needsRf64(largestRiffData)).toBe(false);
    expect(needsRf64(largestRiffData + 4)).toBe(true);
    expect(wavHeader(largestRiffData).byteLength).toBe(RIFF_HEADER_BYTES);
    expect(new DataView(wavHeader(largestRiffData).buffer).getUint32(4, true)).toBe(largestRiffData + 36);
    expect(wavHeader(largestRiffData + 4).byteLength).toBe(RF64_HEADER_BYTES);
    expect(exportPlan(3600).rf64).toBe(false);
    expect(exportPlan(43200).rf64).toBe(true);
  });

  it("rejects lengths that are not whole stereo frames", () => {
    expect(() => wavHeader(6)).toThrow(RangeError);
    expect(() => wavHeader(-4)).toThrow(RangeError);
  });
});

describe("RF64 header (EBU Tech 3306) for a 12-hour file", () => {
  const frames = 43200 * 48000;
  const dataBytes = frames * 4;
  const header = wavHeader(dataBytes);
  const v = new DataView(header.buffer);

  it("has every field where the spec puts it", () => {
    expect(header.byteLength).toBe(80);
    expect(ascii(header, 0)).toBe("RF64");
    expect(v.getUint32(4, true)).toBe(0xffffffff);
    expect(ascii(header, 8)).toBe("WAVE");
    expect(ascii(header, 12)).toBe("ds64");
    expect(v.getUint32(16, true)).toBe(28);
    expect(v.getBigUint64(20, true)).toBe(BigInt(dataBytes + 72)); // riffSize = file length - 8
    expect(v.getBigUint64(28, true)).toBe(BigInt(dataBytes)); // dataSize
    expect(v.getBigUint64(36, true)).toBe(BigInt(frames)); // sampleCount
    expect(v.getUint32(44, true)).toBe(0); // tableLength
    expect(ascii(header, 48)).toBe("fmt ");
    expect(v.getUint32(52, true)).toBe(16);
    expect(v.getUint16(56, true)).toBe(1); // PCM
    expect(v.getUint16(58, true)).toBe(2);
    expect(v.getUint32(60, true)).toBe(48000);
    expect(v.getUint32(64, true)).toBe(192000);
    expect(v.getUint16(68, true)).toBe(4);
    expect(v.getUint16(70, true)).toBe(16);
    expect(ascii(header, 72)).toBe("data");
    expect(v.getUint32(76, true)).toBe(0xffffffff);
    expect(exportPlan(43200).totalBytes).toBe(8_294_400_080);
  });

  it("is read back by our parser", () => {
    expect(parseWavHeader(header)).toEqual({
      container: "RF64", riffSize: dataBytes + 72, formatTag: 1, channels: 2, sampleRate: 48000, byteRate: 192000,
      blockAlign: 4, bitsPerSample: 16, dataOffset: 80, dataBytes, frames, sampleCount: frames,
    });
  });

  // A header followed by one second of a tone: readers take the length from ds64, not the file size.
  const oneSecond = exportBytes(singleTone(1000), 1).subarray(RIFF_HEADER_BYTES);
  function truncated(): string {
    const file = join(dir, "rf64-truncated.wav");
    const bytes = new Uint8Array(80 + 192000);
    bytes.set(header);
    bytes.set(oneSecond, 80);
    writeFileSync(file, bytes);
    return file;
  }

  it("is read by ffprobe as 12 hours", () => {
    const { stream, format } = ffprobe(truncated());
    expect(stream.codec_name).toBe("pcm_s16le");
    expect(stream.duration_ts).toBe(frames);
    expect(Number(format.duration)).toBe(43200);
  });

  it("is decoded by ffmpeg from the data chunk at byte 80 (the second that is there)", () => {
    const samples = ffmpegSamples(truncated());
    expect(samples.byteLength).toBe(192000);
    expect(samples.equals(Buffer.from(oneSecond))).toBe(true);
  });
});

describe("24-bit WAV", () => {
  function export24(seconds: number): Uint8Array {
    const r = new WavRenderer(createNodeEngine(FS), singleTone(1000), seconds, { pcm: "s24" });
    const out = new Uint8Array(r.plan.totalBytes);
    let pos = 0;
    for (const chunk of r.chunks(DEFAULT_CHUNK_BYTES + 6)) {
      out.set(chunk, pos);
      pos += chunk.byteLength;
    }
    expect(pos).toBe(r.plan.totalBytes);
    return out;
  }

  it("has a 44-byte PCM header with 24 bits and 6-byte frames, read back by our parser and ffprobe", () => {
    const bytes = export24(2);
    expect(bytes.byteLength).toBe(44 + 2 * 48000 * 6);
    expect(parseWavHeader(bytes)).toEqual({
      container: "RIFF", riffSize: bytes.byteLength - 8, formatTag: 1, channels: 2, sampleRate: 48000, byteRate: 288000,
      blockAlign: 6, bitsPerSample: 24, dataOffset: 44, dataBytes: 576000, frames: 96000,
    });
    const file = join(dir, "short24.wav");
    writeFileSync(file, bytes);
    const { stream, format } = ffprobe(file);
    expect(stream.codec_name).toBe("pcm_s24le");
    expect(stream.bits_per_sample).toBe(24);
    expect(stream.duration_ts).toBe(96000);
    expect(Number(format.duration)).toBe(2);
    // ffmpeg decodes exactly the samples written after the header.
    const decoded = execFileSync(requireBinary("ffmpeg").path, ["-v", "error", "-i", file, "-f", "s24le", "-c:a", "pcm_s24le", "pipe:1"], { maxBuffer: 64 << 20 });
    expect(decoded.equals(Buffer.from(bytes.subarray(44)))).toBe(true);
  });

  it("holds the tone 24-bit deep: its quiet fade-out keeps values a 16-bit file cannot", () => {
    const bytes = export24(1);
    const pcm = bytes.subarray(44);
    let fine = 0;
    for (let i = 0; i < pcm.length; i += 3) if (pcm[i] !== 0 && pcm[i] !== 0xff) fine++;
    expect(fine / (pcm.length / 3)).toBeGreaterThan(0.9); // the low byte is used
    const s = (i: number) => ((pcm[3 * i] | (pcm[3 * i + 1] << 8) | (pcm[3 * i + 2] << 16)) << 8) >> 8;
    const decoded = Float32Array.from({ length: 16384 }, (_, i) => s(2 * (12000 + i)) / PCM24_SCALE);
    expect(Math.abs(peakFrequency(decoded) - 1000)).toBeLessThan(1);
  });

  it("needs RF64 past 4 GiB sooner (after 4 h 8 min), and 12 hours are 12,441,600,080 bytes", () => {
    expect(exportPlan(4 * 3600, FS, "s24").rf64).toBe(false);
    expect(exportPlan(4 * 3600 + 9 * 60, FS, "s24").rf64).toBe(true);
    expect(exportPlan(43200, FS, "s24")).toMatchObject({ rf64: true, totalBytes: 12_441_600_080, frameBytes: 6 });
    const h = wavHeader(43200 * 48000 * 6, 48000, 24);
    expect(parseWavHeader(h)).toMatchObject({ container: "RF64", bitsPerSample: 24, blockAlign: 6, frames: 43200 * 48000 });
    expect(() => wavHeader(4, 48000, 24)).toThrow(RangeError);
  });
});

describe("PCM16 with TPDF dither", () => {
  it("decodes back to the engine's float output within ±1.5 LSB, with unbiased dither noise", () => {
    const state = defaultAudioState(); // four sines at 432/528/639/741 Hz, compressor on
    const seconds = 10;
    const bytes = exportBytes(state, seconds);
    const info = parseWavHeader(bytes);
    expect(info.frames).toBe(seconds * FS);
    const pcm = new Int16Array(bytes.buffer, info.dataOffset, info.frames * 2);

    // The same playback, rendered as floats through a fresh engine in different block sizes.
    const engine = createNodeEngine(FS);
    engine.apply(state);
    engine.start({ delay: 0, duration: seconds });
    const ref = renderFrames(engine, info.frames, 3000);

    let maxErr = 0, sum = 0, sumSq = 0, loud = 0;
    for (let i = 0; i < info.frames; i++) {
      for (const [ch, x] of [[0, ref.left[i]], [1, ref.right[i]]] as const) {
        const err = pcm[2 * i + ch] - x * PCM16_SCALE; // in LSB
        maxErr = Math.max(maxErr, Math.abs(err));
        sum += err;
        sumSq += err * err;
        loud = Math.max(loud, Math.abs(x));
      }
    }
    const n = info.frames * 2;
    expect(loud).toBeGreaterThan(0.05); // there is sound to compare
    expect(maxErr).toBeLessThanOrEqual(1.5 + 1e-6);
    expect(Math.abs(sum / n)).toBeLessThan(0.01);
    // TPDF (variance 1/6 LSB²) plus rounding (1/12): 0.5 LSB rms. Plain rounding would give 0.29.
    expect(Math.sqrt(sumSq / n)).toBeGreaterThan(0.45);
    expect(Math.sqrt(sumSq / n)).toBeLessThan(0.55);
    // The decoded file's strongest tone is one of the four channels; it ends in silence (fade-out).
    const decoded = Float32Array.from({ length: 65536 }, (_, i) => pcm[2 * (FS + i)] / PCM16_SCALE);
    const f = peakFrequency(decoded);
    expect(Math.min(...[432, 528, 639, 741].map((c) => Math.abs(c - f)))).toBeLessThan(1);
    for (let i = pcm.length - 64; i < pcm.length; i++) expect(Math.abs(pcm[i])).toBeLessThan(0.002 * PCM16_SCALE);
    expect(Math.abs(pcm[pcm.length - 1])).toBeLessThanOrEqual(1);
    expect(Math.abs(pcm[pcm.length - 2])).toBeLessThanOrEqual(1);
  });

  it("clamps full scale and dithers silence to at most ±1 LSB with a triangular (TPDF) spread", () => {
    const engine = createNodeEngine(FS);
    engine.setDitherSeed(1);
    const n = 4096;
    // Full scale: write +1 / -1 into the engine's output buffers and convert them.
    const { left, right } = engine.render(n);
    left.fill(1);
    right.fill(-1);
    let pcm = new Int16Array(engine.encodePcm16(n).slice().buffer);
    for (let i = 0; i < n; i++) {
      expect(pcm[2 * i]).toBeGreaterThanOrEqual(32766);
      expect(pcm[2 * i + 1]).toBeLessThanOrEqual(-32766);
    }
    // Silence (nothing playing): floor(d + 0.5) for d triangular on (-1, 1) is -1, 0 or +1 with
    // probabilities 1/8, 3/4, 1/8, independently on both channels.
    const counts = new Map<number, number>();
    let same = 0;
    for (let block = 0; block < 16; block++) {
      pcm = new Int16Array(engine.renderPcm16(n).slice().buffer);
      for (let i = 0; i < pcm.length; i++) counts.set(pcm[i], (counts.get(pcm[i]) ?? 0) + 1);
      for (let i = 0; i < n; i++) if (pcm[2 * i] === pcm[2 * i + 1]) same++;
    }
    const total = 16 * n * 2;
    expect([...counts.keys()].sort()).toEqual([-1, 0, 1]);
    expect((counts.get(-1) ?? 0) / total).toBeCloseTo(0.125, 2);
    expect((counts.get(0) ?? 0) / total).toBeCloseTo(0.75, 2);
    expect((counts.get(1) ?? 0) / total).toBeCloseTo(0.125, 2);
    // Uncorrelated channels: equal by chance 1/8^2 + 3/4^2 + 1/8^2 = 0.59375 of the time.
    expect(same / (16 * n)).toBeCloseTo(0.59375, 2);
  });
});

describe("determinism", () => {
  const sha = (b: Uint8Array) => createHash("sha256").update(b).digest("hex");

  it("gives the same bytes for the same state and duration, whatever the chunk size", () => {
    const state = singleTone(528, "sawtooth");
    const a = sha(exportBytes(state, 3));
    expect(sha(exportBytes(state, 3))).toBe(a);
    expect(sha(exportBytes(state, 3, 4096 + 44))).toBe(a);
    expect(sha(exportBytes(state, 3, 3 << 20))).toBe(a);
    expect(sha(exportBytes(state, 3, 44 + 4 * 1001))).toBe(a); // 1001-frame chunks: the encoder's scalar tail
    const odd = 3 + 3 / FS; // 144003 frames
    expect(sha(exportBytes(state, odd, 44 + 4 * 1001))).toBe(sha(exportBytes(state, odd)));
    expect(sha(exportBytes(singleTone(529, "sawtooth"), 3))).not.toBe(a);
  });

  it("never holds more than its chunk buffers (1 MiB chunks for a 30 s file)", () => {
    const r = new WavRenderer(createNodeEngine(FS), singleTone(440), 30);
    const seen = new Set<ArrayBufferLike>();
    let chunks = 0;
    for (const c of r.chunks()) {
      seen.add(c.buffer);
      chunks++;
      if (!r.done) expect(c.byteLength).toBeGreaterThanOrEqual(DEFAULT_CHUNK_BYTES - 4);
    }
    expect(seen.size).toBe(2);
    expect(chunks).toBe(Math.ceil(r.plan.totalBytes / DEFAULT_CHUNK_BYTES));
    expect(r.bytesDone).toBe(44 + 30 * 48000 * 4);
  });
});
