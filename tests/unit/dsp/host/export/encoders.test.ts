// The studio's encoders (mediabunny with libFLAC and LAME in WebAssembly, dsp/host/export/encoders.ts)
// run in Node as in the browser's export worker: fed the renderer's raw chunks, FLAC 16-bit and
// 24-bit decode (by ffmpeg, an independent decoder) to exactly the samples of the WAV of the same
// render, with STREAMINFO's length complete; a CBR MP3 has its bitrate, length and tone; a VBR MP3
// (wasm-media-encoders' LAME, mp3-vbr.ts) is indexed by a Xing frame that counts every frame, its
// frames vary in bitrate, and it keeps length and tone.

import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { requireBinary } from "../../../../../api/platform/binaries";
import { createMediabunnyEncoder } from "../../../../../dsp/host/export/encoders";
import { mp3FrameLength } from "../../../../../dsp/host/export/mp3-vbr";
import { EXPORT_FORMATS, type ExportSettings } from "../../../../../dsp/host/export/formats";
import { WavRenderer } from "../../../../../dsp/host/export/render";
import { createNodeEngine } from "../../../../../dsp/host/node";
import { FS, peakFrequency, singleTone } from "../../assembly/helpers";

const SECONDS = 12;
const TONE = 432.5;
let dir: string;
let ffmpeg: string;
let ffprobe: string;

/** The whole file the encoder writes for `settings`, gathered at the positions it writes. */
async function encode(settings: ExportSettings): Promise<Uint8Array> {
  const renderer = new WavRenderer(createNodeEngine(FS), singleTone(TONE, "sine"), SECONDS, { pcm: EXPORT_FORMATS[settings.format].pcm, container: "raw" });
  let file = new Uint8Array(0);
  const encoder = await createMediabunnyEncoder(settings, {
    async write(data, position) {
      if (position + data.byteLength > file.byteLength) {
        const grown = new Uint8Array(position + data.byteLength);
        grown.set(file);
        file = grown;
      }
      file.set(data, position);
    },
  });
  for (const chunk of renderer.chunks(1 << 20, 2)) await encoder.write(chunk);
  await encoder.finish();
  return file;
}

function wavOf(bits: 16 | 24): string {
  const out = join(dir, `ref-${bits}.wav`);
  const renderer = new WavRenderer(createNodeEngine(FS), singleTone(TONE, "sine"), SECONDS, { pcm: bits === 24 ? "s24" : "s16" });
  const parts: Uint8Array[] = [];
  for (const chunk of renderer.chunks(1 << 20, 2)) parts.push(chunk.slice());
  writeFileSync(out, Buffer.concat(parts));
  return out;
}

const decode = (file: string, fmt: string) => execFileSync(ffmpeg, ["-v", "error", "-i", file, "-f", fmt, "-"], { maxBuffer: 1 << 28 });
const probe = (file: string) =>
  JSON.parse(execFileSync(ffprobe, ["-v", "error", "-show_entries", "stream=codec_name,bits_per_raw_sample,bit_rate,duration_ts", "-of", "json", file], { encoding: "utf8" })).streams[0];

beforeAll(() => {
  ffmpeg = requireBinary("ffmpeg").path;
  ffprobe = requireBinary("ffprobe").path;
  dir = mkdtempSync(join(tmpdir(), "encoders-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("mediabunny encoders", () => {
  for (const bits of [16, 24] as const) {
    it(`FLAC ${bits}-bit decodes bit-identical to the ${bits}-bit WAV`, async () => {
      const flac = join(dir, `t${bits}.flac`);
      writeFileSync(flac, await encode({ format: bits === 24 ? "flac24" : "flac16" }));
      const p = probe(flac);
      expect(p.codec_name).toBe("flac");
      expect(p.bits_per_raw_sample).toBe(String(bits));
      expect(Number(p.duration_ts)).toBe(SECONDS * FS);
      const fmt = bits === 24 ? "s32le" : "s16le";
      expect(decode(flac, fmt).equals(decode(wavOf(bits), fmt))).toBe(true);
    });
  }

  it("MP3 at 256 kbps: its bitrate, its length and its tone", async () => {
    const mp3 = join(dir, "t.mp3");
    writeFileSync(mp3, await encode({ format: "mp3", mp3: { kind: "cbr", kbps: 256 } }));
    const p = probe(mp3);
    expect(p.codec_name).toBe("mp3");
    expect(Math.abs(Number(p.bit_rate) - 256000)).toBeLessThan(2560); // ffprobe: bytes over duration
    const b = decode(mp3, "f32le");
    const all = new Float32Array(b.buffer, b.byteOffset, b.byteLength / 4);
    expect(Math.abs(all.length / 2 - SECONDS * FS)).toBeLessThan(FS * 0.1);
    const left = Float32Array.from({ length: 1 << 17 }, (_, i) => all[2 * (4 * FS + i)]);
    expect(Math.abs(peakFrequency(left, FS, 1 << 17) - TONE)).toBeLessThan(0.05);
  });

  for (const quality of [0, 2, 5] as const) {
    it(`MP3 VBR V${quality}: a Xing frame counting every frame, more than one bitrate, its length and its tone`, async () => {
      const bytes = await encode({ format: "mp3", mp3: { kind: "vbr", quality } });
      const frames: { at: number; kbpsIndex: number }[] = [];
      for (let at = 0; at < bytes.length; ) {
        const len = mp3FrameLength(bytes, at);
        expect(len, `a frame header at byte ${at}`).not.toBeNull();
        frames.push({ at, kbpsIndex: bytes[at + 2] >> 4 });
        at += len!;
      }
      // The first frame is the index: "Xing", its flags, then the frame count (all frames, itself included).
      const xing = Buffer.from(bytes).indexOf("Xing");
      expect(xing).toBeGreaterThan(0);
      expect(xing).toBeLessThan(frames[1].at);
      expect(new DataView(bytes.buffer, bytes.byteOffset).getUint32(xing + 8)).toBe(frames.length);
      expect(new Set(frames.slice(1).map((f) => f.kbpsIndex)).size).toBeGreaterThan(1);
      const mp3 = join(dir, `v${quality}.mp3`);
      writeFileSync(mp3, bytes);
      expect(probe(mp3).codec_name).toBe("mp3");
      const b = decode(mp3, "f32le");
      const all = new Float32Array(b.buffer, b.byteOffset, b.byteLength / 4);
      expect(Math.abs(all.length / 2 - SECONDS * FS)).toBeLessThan(FS * 0.1);
      const left = Float32Array.from({ length: 1 << 17 }, (_, i) => all[2 * (4 * FS + i)]);
      expect(Math.abs(peakFrequency(left, FS, 1 << 17) - TONE)).toBeLessThan(0.05);
    });
  }
});
