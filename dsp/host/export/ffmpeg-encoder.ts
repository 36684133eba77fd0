// The command line's encoders: ffmpeg (already a dependency; api/platform/binaries.ts finds the
// system's, or @ffmpeg-installer's static build, both with libFLAC-compatible FLAC, libmp3lame and
// libopus) in a process of its own, so the engine renders on one core while ffmpeg encodes on the
// other. Native encoders are 2-3x quicker than the WebAssembly builds the studio uses
// (encoders.ts): measured on the base patch, FLAC 16-bit 460x realtime against 220x, MP3 at
// 320 kbps 127x (LAME quality 5) against 59x (docs/performance.md). FLAC is lossless, so both
// decode to the same samples; MP3 and Opus are the same encoders (LAME, libopus) at the same settings.
// The renderer's raw PCM is piped into ffmpeg's stdin and ffmpeg writes the file itself:
//   flac: ffmpeg -f s16le|s24le -ar 48000 -ac 2 -i pipe:0 -c:a flac -compression_level 5 out.flac
//   mp3:  ffmpeg -f s16le -ar 48000 -ac 2 -i pipe:0 -c:a libmp3lame -b:a 320k|-q:a V -compression_level Q out.mp3
//   opus: ffmpeg -f f32le -ar 48000 -ac 2 -i pipe:0 -c:a libopus -b:a 160k -f ogg out.opus
// Memory is bounded by the pipe: write() resolves when the chunk has been taken (stdin drained).
// Failures are errors with ffmpeg's last words: it exiting early (EPIPE on our side), a non-zero
// exit, or it taking no input for STALL_MS (then it is killed).

import { spawn, type ChildProcessByStdio } from "node:child_process";
import type { Readable, Writable } from "node:stream";
import { DEFAULT_FLAC_LEVEL, DEFAULT_MP3_KBPS, DEFAULT_MP3_QUALITY, DEFAULT_OPUS_KBPS, type ExportSettings } from "./formats";
import type { PcmEncoder } from "./encoders";

/** ffmpeg taking no input for this long is a stall. */
export const STALL_MS = 30_000;
/** Bytes of ffmpeg's stderr kept for the error message. */
const STDERR_TAIL = 4096;

/** ffmpeg's arguments for an export in `settings` written to `out`. */
export function ffmpegArgs(settings: ExportSettings, out: string): string[] {
  const input = (fmt: string) => ["-hide_banner", "-nostdin", "-loglevel", "error", "-f", fmt, "-ar", "48000", "-ac", "2", "-i", "pipe:0"];
  // No tags or encoder name in the file: the same render gives the same bytes on every machine
  // with the same ffmpeg.
  const plain = ["-map_metadata", "-1", "-fflags", "+bitexact", "-flags:a", "+bitexact"];
  switch (settings.format) {
    case "flac16":
      return [...input("s16le"), ...plain, "-c:a", "flac", "-compression_level", String(settings.flacLevel ?? DEFAULT_FLAC_LEVEL), "-f", "flac", "-y", out];
    case "flac24":
      return [...input("s24le"), ...plain, "-c:a", "flac", "-sample_fmt", "s32", "-bits_per_raw_sample", "24", "-compression_level", String(settings.flacLevel ?? DEFAULT_FLAC_LEVEL), "-f", "flac", "-y", out];
    case "mp3": {
      const mode = settings.mp3 ?? { kind: "cbr", kbps: DEFAULT_MP3_KBPS };
      const rate = mode.kind === "cbr" ? ["-b:a", `${mode.kbps}k`] : ["-q:a", String(mode.quality)];
      return [...input("s16le"), ...plain, "-c:a", "libmp3lame", ...rate, "-compression_level", String(settings.mp3Quality ?? DEFAULT_MP3_QUALITY), "-f", "mp3", "-y", out];
    }
    case "opus": {
      const kbps = settings.opusKbps ?? DEFAULT_OPUS_KBPS;
      // -application audio: music mode (not voip); VBR with the given average, libopus's default.
      return [...input("f32le"), ...plain, "-c:a", "libopus", "-b:a", `${kbps}k`, "-application", "audio", "-f", "ogg", "-y", out];
    }
    default:
      throw new Error(`${settings.format} is written by the WAV renderer, not ffmpeg`);
  }
}

export interface FfmpegEncoderOptions {
  /** The ffmpeg to run (api/platform/binaries.ts requireBinary("ffmpeg").path). */
  ffmpeg: string;
  stallMs?: number;
}

/** Starts ffmpeg encoding `settings` into the file `out`. */
export function createFfmpegEncoder(settings: ExportSettings, out: string, options: FfmpegEncoderOptions): PcmEncoder {
  const args = ffmpegArgs(settings, out);
  const child: ChildProcessByStdio<Writable, null, Readable> = spawn(options.ffmpeg, args, { stdio: ["pipe", "ignore", "pipe"] });
  const stallMs = options.stallMs ?? STALL_MS;
  let stderr = "";
  child.stderr.setEncoding("utf8");
  child.stderr.on("data", (d: string) => {
    stderr = (stderr + d).slice(-STDERR_TAIL);
  });
  let failure: Error | null = null;
  const fail = (why: string) => {
    failure ??= new Error(`ffmpeg ${why}${stderr.trim() ? `: ${lastLine(stderr)}` : ""}`);
    return failure;
  };
  const exited = new Promise<void>((resolve) => {
    child.on("error", (err) => {
      fail(`could not run (${err.message})`);
      resolve();
    });
    child.on("close", (code, signal) => {
      if (code !== 0) fail(signal ? `was stopped by ${signal}` : `exited with code ${code}`);
      resolve();
    });
  });
  // EPIPE when ffmpeg is gone: its exit code and words say why.
  child.stdin.on("error", () => fail("stopped reading its input"));

  const waitDrain = () =>
    new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        child.kill("SIGKILL");
        reject(fail(`took no input for ${Math.round(stallMs / 1000)} s`));
      }, stallMs);
      const done = (err?: Error) => {
        clearTimeout(timer);
        child.stdin.off("drain", onDrain);
        child.stdin.off("close", onClose);
        if (err) reject(err);
        else resolve();
      };
      const onDrain = () => done();
      const onClose = () => done(failure ?? fail("closed its input"));
      child.stdin.once("drain", onDrain);
      child.stdin.once("close", onClose);
    });

  return {
    async write(pcm) {
      if (failure) throw failure;
      if (pcm.byteLength === 0) return;
      // stdin.write keeps the buffer until it is sent: hand it a copy of the renderer's chunk.
      if (!child.stdin.write(Buffer.from(pcm))) await waitDrain();
      if (failure) throw failure;
    },
    async finish() {
      if (failure) throw failure;
      child.stdin.end();
      const timer = setTimeout(() => {
        child.kill("SIGKILL");
        fail(`did not finish within ${Math.round(stallMs / 1000)} s of its input's end`);
      }, stallMs);
      await exited;
      clearTimeout(timer);
      if (failure) throw failure;
    },
    async abort() {
      child.stdin.destroy();
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
      await exited;
    },
  };
}

function lastLine(text: string): string {
  const lines = text.trim().split("\n");
  return lines[lines.length - 1].trim();
}
