// The command line's decoder for the export report's decode-back check (decoded-check.ts):
// ffprobe reads the duration the file states (FLAC's STREAMINFO, MP3's Xing/LAME frame count,
// Ogg's last granule position) and ffmpeg decodes one window at a time to 32-bit float, seeking
// in the file (input seeking decodes from the nearest seek point and drops what precedes the
// window, so the frames come out exactly where they were rendered). ffmpeg is already a
// dependency; api/platform/binaries.ts finds it.

import { execFile } from "node:child_process";
import { promisify } from "node:util";
import type { DecodedAudio } from "./decoded-check";

const run = promisify(execFile);

export interface FfmpegDecoderOptions {
  ffmpeg: string;
  ffprobe: string;
  sampleRate: number;
}

export function ffmpegDecoder(file: string, options: FfmpegDecoderOptions): DecodedAudio {
  const fs = options.sampleRate;
  return {
    decoder: "ffmpeg",
    async duration() {
      const { stdout } = await run(options.ffprobe, ["-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0", file]);
      const seconds = Number.parseFloat(stdout.trim());
      return Number.isFinite(seconds) ? seconds : null;
    },
    async read(from, frames) {
      const args = [
        "-hide_banner", "-nostdin", "-v", "error", "-ss", (from / fs).toFixed(9), "-i", file,
        "-af", `atrim=end_sample=${frames}`, "-f", "f32le", "-ac", "2", "-ar", String(fs), "pipe:1",
      ];
      const { stdout } = await run(options.ffmpeg, args, { encoding: "buffer", maxBuffer: frames * 8 + (1 << 20) });
      const data = new Float32Array(stdout.buffer.slice(stdout.byteOffset, stdout.byteOffset + (stdout.byteLength & ~7)));
      const left = new Float32Array(frames);
      const right = new Float32Array(frames);
      const n = Math.min(frames, data.length / 2);
      for (let i = 0; i < n; i++) {
        left[i] = data[2 * i];
        right[i] = data[2 * i + 1];
      }
      return { left, right };
    },
  };
}
