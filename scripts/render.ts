// Command-line renderer: the studio's export from a terminal, for power users and servers.
//   npm run render -- --preset session.json --duration 12:00:00 --out session.wav
//   npm run render -- --preset session.json --out session.flac --bits 24      (or .mp3, .opus)
//   npm run render -- --config <share-link base64 state> --duration 600 --out focus.wav
//   npm run render -- --sbg program.sbg --out session.wav        (length from the schedule)
//   npm run render -- --preset session.json --out session.wav --report session-report.txt
// Same renderer, seed and bytes as the browser's export worker (dsp/host/export/render.ts), with
// the studio's default listening levels (2 s fade-in, limiter at -1 dBTP) unless flags say otherwise.
// The format follows --out's extension (dsp/host/export/formats.ts): WAV is written by the
// renderer itself, FLAC, MP3 and Opus by ffmpeg in a process of its own (a second core:
// dsp/host/export/ffmpeg-encoder.ts), all streaming in bounded memory.
// The file is written under a temporary name next to --out and renamed only when complete, so
// exit code 0 means a complete file and anything else leaves no file that looks complete.
// Exit codes: 0 done, 1 render or I/O failure, 2 bad arguments, preset or schedule, 130 interrupted.

import { open, readFile, rename, rm, stat, statfs, writeFile } from "node:fs/promises";
import { existsSync, readFileSync, statSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { z } from "zod";
import { WavRenderer } from "../dsp/host/export/render";
import {
  DEFAULT_FLAC_LEVEL, DEFAULT_MP3_KBPS, DEFAULT_MP3_QUALITY, DEFAULT_OPUS_KBPS, EXPORT_FORMATS, MP3_CBR_KBPS, OPUS_MAX_KBPS, OPUS_MIN_KBPS, UnknownFormatError, bitsOf, describeSettings,
  estimatedBytes, formatForFile, type ExportSettings,
} from "../dsp/host/export/formats";
import type { PcmEncoder } from "../dsp/host/export/encoders";
import { createFfmpegEncoder } from "../dsp/host/export/ffmpeg-encoder";
import { requireBinary } from "../api/platform/binaries";
import { ExportReportCollector } from "../dsp/host/export/report";
import { formatReport, reportSummary } from "../dsp/host/export/report-text";
import { checkDecoded, withDecodedCheck } from "../dsp/host/export/decoded-check";
import { ffmpegDecoder } from "../dsp/host/export/ffmpeg-decoder";
import { createNodeEngine } from "../dsp/host/node";
import { audioStateSchema, hasAudibleChannel, type AudioState } from "../dsp/host/schema/state";
import { MAX_DURATION_UNLIMITED_SECONDS } from "../dsp/host/model/limits";
import { decodeConfig, parsePreset } from "../dsp/host/schema/preset";
import { readSbgVoices, type SbgIssue } from "../dsp/host/sbg/index";
import { hasTimeline, resolveTimeline } from "../dsp/host/schema/timeline";
import { DEFAULT_LEVELS, FADE_IN_MAX_SECONDS, NORMALISED_LUFS, type Levels } from "../dsp/host/schema/levels";
import type { SoundtrackAudio } from "../dsp/host/model/soundtrack";
import { loadSoundtrack } from "../dsp/host/soundtrack/decode";
import { clipFromWav } from "../dsp/host/export/recording-wav";
import type { RecordingClip } from "../dsp/host/model/recordings";

const USAGE = `Usage: npm run render -- (--preset <file.json> | --config <base64 state> | --sbg <file.sbg>) [--duration <HH:MM:SS | seconds>] [--mix <audio file>] [--recording <id>=<file.wav> ...] --out <file.wav | .flac | .mp3 | .opus> [--bits 16|24] [--mp3-kbps N | --mp3-vbr Q] [--mp3-quality Q] [--opus-kbps N] [--flac-level L] [--encoder ffmpeg|wasm] [--report <file.txt | file.json>]

  --preset    a JSON AudioState, or a saved preset ({ "name", "data": AudioState }); a timeline in
              it is checked and played as the studio does
  --config    the state from a share link's config parameter (base64 JSON, URL-safe or standard),
              checked and clamped to the catalogue as the studio does when it opens the link
  --sbg       an SBaGen schedule (tone-sets and timed lines); problems print with their line
              numbers: errors stop (exit 2), warnings (approximations, parts left out) go to stderr
  --mix       the soundtrack the session's mix voices play (WAV, FLAC, OGG or MP3; it loops;
              FILE#N picks SBaGen's looping group N); default: the file the session names (an
              .sbg's -m), looked for beside the schedule or preset
  --recording the audio of a voice recording the session places (AudioState.recordings), by its id:
              a 16-bit WAV at 48 kHz as GET /api/recordings/{id}/audio answers it; repeat for
              each; a placed recording without its file is silent (a warning)
  --duration  length of the file, up to 12:00:00 (43200 s); default: the state's own duration
              (for --sbg: the schedule's length)
  --out       the file to write, in the format its extension names: .wav, .flac, .mp3 or .opus
              (replaced if it exists; its directory must exist)
  --bits      16 (default) or 24: the depth of a WAV or FLAC file (24-bit: TPDF dither at 24 bits)
  --no-dither 24-bit only: round the engine's output instead of dithering it
  --mp3-kbps  an MP3's constant bitrate: ${MP3_CBR_KBPS.join(", ")} (default ${DEFAULT_MP3_KBPS})
  --mp3-vbr   an MP3 in variable bitrate instead, at LAME quality 0 (best, about 245 kbps) to 9
  --mp3-quality LAME's algorithm quality, 0 (slowest, best) to 9 (default ${DEFAULT_MP3_QUALITY}; SBaGenX's -J)
  --opus-kbps an Opus file's bitrate, ${OPUS_MIN_KBPS}-${OPUS_MAX_KBPS} (default ${DEFAULT_OPUS_KBPS})
  --flac-level a FLAC file's compression level, 0 (quickest) to 8 (smallest), lossless at every
              level (default ${DEFAULT_FLAC_LEVEL}; SBaGenX's -Z)
  --encoder   ffmpeg (default: native, 2-3x quicker) or wasm: the studio's own libFLAC and LAME
              builds, for .flac and .mp3 files byte-identical to the studio's export of the session
  --report    also verify the rendered audio (frequencies by FFT at the start, middle and end,
              clipping, clicks at timeline steps; an encoded file decoded back by ffmpeg) and write the report to this file: text, or
              JSON when the name ends in .json; its summary and any failed check are printed
  --normalize bring the file to ${NORMALISED_LUFS} LUFS integrated (ITU-R BS.1770-4; measured first, then rendered)
  --fade-in   seconds of fade-in from silence at the start, 0-${FADE_IN_MAX_SECONDS} (default ${DEFAULT_LEVELS.fadeIn})
  --no-limiter  leave out the true-peak limiter (-1 dBTP) on the master
  --stats     print one RENDER_STATS JSON line (wall time, x realtime, peak RSS) at the end
  --quiet     no progress bar`;

/** 1 MiB chunks, two buffers: one write in flight while the next chunk renders. */
const CHUNK_BYTES = 1 << 20;
/** Chunks piped into ffmpeg are smaller. The render runs on this thread and blocks its event loop,
 *  so nothing refills ffmpeg's pipe (a socket holding about 200 kB) while a chunk renders: with
 *  1 MiB chunks ffmpeg sat idle through most of each render and the two took turns instead of
 *  running side by side. A 64 KiB chunk renders in well under the time ffmpeg takes to drain the
 *  pipe. Measured, 1 h to FLAC 16-bit: base patch 329x -> 403x, 16 voices 206x -> 335x
 *  (docs/performance.md). */
const FFMPEG_CHUNK_BYTES = 64 << 10;
const NO_CHANNEL = "Please enable at least one frequency channel before exporting.";

class UsageError extends Error {}
class Interrupted extends Error {}
/** A failure after the output was opened; `removed` says whether a partial file was deleted. */
class RenderFailure extends Error {
  constructor(readonly cause: unknown, readonly removed: boolean) {
    super(cause instanceof Error ? cause.message : String(cause));
  }
}

/** Why a file could not be created, in words (the errno codes of open(2) a user can act on). */
const CANNOT_WRITE: Readonly<Record<string, string>> = {
  EACCES: "permission denied",
  EPERM: "permission denied",
  EROFS: "the file system is read-only",
  ENOSPC: "no space left on the device",
  EDQUOT: "the disk quota is used up",
  EISDIR: "it is a directory",
};

/** The output file could not even be created. */
class CannotWrite extends Error {
  constructor(readonly out: string, readonly cause: unknown) {
    const code = (cause as { code?: string }).code ?? "";
    super(`cannot write ${out}: ${CANNOT_WRITE[code] ?? (cause instanceof Error ? cause.message : String(cause))}.`);
  }
}

/** "12:00:00", "1:30", "90" or "90.5" -> seconds. */
function parseDurationArg(text: string): number {
  const t = text.trim();
  let seconds: number;
  if (/^\d+(\.\d+)?s?$/.test(t)) seconds = Number(t.replace(/s$/, ""));
  else if (/^\d+(:\d{1,2}){1,2}$/.test(t)) {
    const [s = 0, m = 0, h = 0] = t.split(":").map(Number).reverse();
    if (m > 59 || s > 59) throw new UsageError(`Invalid duration '${text}': minutes and seconds must be 0-59.`);
    seconds = h * 3600 + m * 60 + s;
  } else throw new UsageError(`Invalid duration '${text}': use HH:MM:SS or a number of seconds.`);
  if (!(seconds > 0) || seconds > MAX_DURATION_UNLIMITED_SECONDS) {
    throw new UsageError(`Invalid duration '${text}': it must be more than 0 and at most 12:00:00 (${MAX_DURATION_UNLIMITED_SECONDS} s).`);
  }
  return seconds;
}

function parseFadeInArg(text: string): number {
  const seconds = /^\d+(\.\d+)?$/.test(text.trim()) ? Number(text) : Number.NaN;
  if (!(seconds >= 0 && seconds <= FADE_IN_MAX_SECONDS)) {
    throw new UsageError(`Invalid --fade-in '${text}': give seconds from 0 to ${FADE_IN_MAX_SECONDS}.`);
  }
  return seconds;
}

function isStream(path: string): boolean {
  try {
    const st = statSync(path);
    return !st.isFile() && !st.isDirectory();
  } catch {
    return false;
  }
}

/** The export's format and its settings from --out's extension and the tuning flags; a flag that
 *  does not fit the format is a usage error rather than silently ignored. */
/** --encoder: ffmpeg by default; wasm (the studio's encoders) for FLAC and MP3 only. */
function encoderChoice(value: string | undefined, settings: ExportSettings): "ffmpeg" | "wasm" {
  if (value === undefined || value === "ffmpeg") return "ffmpeg";
  if (value !== "wasm") throw new UsageError(`Invalid --encoder '${value}': give ffmpeg or wasm.`);
  const f = EXPORT_FORMATS[settings.format];
  if (f.kind !== "FLAC" && f.kind !== "MP3") {
    throw new UsageError(`--encoder wasm is for .flac and .mp3 files, not ${f.extension}${f.kind === "Opus" ? " (the studio encodes Opus with the browser's WebCodecs, which Node has not)" : ""}.`);
  }
  // The studio's LAME builds keep their own algorithm quality (-q).
  if (settings.mp3Quality !== undefined) throw new UsageError("--mp3-quality is for --encoder ffmpeg: the studio's LAME builds keep their own quality setting.");
  return "wasm";
}

function exportSettings(out: string, values: Record<string, string | boolean | string[] | undefined>): ExportSettings {
  const bitsText = values.bits as string | undefined;
  if (bitsText !== undefined && bitsText !== "16" && bitsText !== "24") throw new UsageError(`Invalid --bits '${bitsText}': give 16 or 24.`);
  const bits = bitsText === "24" ? 24 : 16;
  let format;
  try {
    format = formatForFile(out, bits);
  } catch (err) {
    if (!(err instanceof UnknownFormatError)) throw err;
    // A device or pipe (/dev/stdout, a FIFO into another program) has no extension: it gets a
    // WAV, the one format written front to back without seeking.
    if (!isStream(out)) throw new UsageError(err.message);
    format = formatForFile(".wav", bits);
  }
  const label = EXPORT_FORMATS[format].extension;
  const only = (flag: string, what: string) => new UsageError(`--${flag} is for ${what} files, not ${label}.`);
  if (bitsText !== undefined && bitsOf(format) === null) throw only("bits", ".wav and .flac");
  if (values["no-dither"] && bits !== 24) throw new UsageError("--no-dither is for 24-bit files (--bits 24); 16-bit files are always dithered.");
  const mp3Kbps = values["mp3-kbps"] as string | undefined;
  const mp3Vbr = values["mp3-vbr"] as string | undefined;
  const opusKbps = values["opus-kbps"] as string | undefined;
  if ((mp3Kbps !== undefined || mp3Vbr !== undefined) && format !== "mp3") throw only(mp3Kbps !== undefined ? "mp3-kbps" : "mp3-vbr", ".mp3");
  if (opusKbps !== undefined && format !== "opus") throw only("opus-kbps", ".opus");
  const mp3Quality = values["mp3-quality"] as string | undefined;
  const flacLevel = values["flac-level"] as string | undefined;
  if (mp3Quality !== undefined && format !== "mp3") throw only("mp3-quality", ".mp3");
  if (flacLevel !== undefined && format !== "flac16" && format !== "flac24") throw only("flac-level", ".flac");
  const settings: ExportSettings = { format };
  if (bits === 24) settings.dither = !values["no-dither"];
  if (format === "mp3") {
    if (mp3Kbps !== undefined && mp3Vbr !== undefined) throw new UsageError("Give --mp3-kbps (constant bitrate) or --mp3-vbr (variable), not both.");
    if (mp3Vbr !== undefined) {
      if (!/^\d$/.test(mp3Vbr.trim())) throw new UsageError(`Invalid --mp3-vbr '${mp3Vbr}': give a LAME quality from 0 (best) to 9.`);
      settings.mp3 = { kind: "vbr", quality: Number(mp3Vbr) };
    } else {
      const kbps = mp3Kbps === undefined ? DEFAULT_MP3_KBPS : Number(mp3Kbps);
      if (!(MP3_CBR_KBPS as readonly number[]).includes(kbps)) throw new UsageError(`Invalid --mp3-kbps '${mp3Kbps}': give one of ${MP3_CBR_KBPS.join(", ")}.`);
      settings.mp3 = { kind: "cbr", kbps };
    }
  }
  if (mp3Quality !== undefined) {
    if (!/^\d$/.test(mp3Quality.trim())) throw new UsageError(`Invalid --mp3-quality '${mp3Quality}': give 0 (best) to 9 (quickest).`);
    settings.mp3Quality = Number(mp3Quality);
  }
  if (flacLevel !== undefined) {
    if (!/^[0-8]$/.test(flacLevel.trim())) throw new UsageError(`Invalid --flac-level '${flacLevel}': give 0 (quickest) to 8 (smallest).`);
    settings.flacLevel = Number(flacLevel);
  }
  if (format === "opus") {
    const kbps = opusKbps === undefined ? DEFAULT_OPUS_KBPS : Number(opusKbps);
    if (!Number.isInteger(kbps) || kbps < OPUS_MIN_KBPS || kbps > OPUS_MAX_KBPS) {
      throw new UsageError(`Invalid --opus-kbps '${opusKbps}': give a whole number from ${OPUS_MIN_KBPS} to ${OPUS_MAX_KBPS}.`);
    }
    settings.opusKbps = kbps;
  }
  return settings;
}

function validateState(raw: unknown, source: string): AudioState {
  // A saved preset wraps the state in { name, data }; a share link or state file is the state itself.
  const candidate = raw && typeof raw === "object" && "data" in raw && !("channels" in raw) ? (raw as { data: unknown }).data : raw;
  const parsed = audioStateSchema.safeParse(candidate);
  if (!parsed.success) throw new UsageError(`Invalid preset in ${source}:\n${z.prettifyError(parsed.error)}`);
  if (parsed.data.timeline === undefined) return parsed.data;
  // The state schema only sees that a timeline is there; the preset schema checks its steps.
  const preset = parsePreset(candidate);
  if (!preset.ok) throw new UsageError(`Invalid preset in ${source}: ${preset.error}`);
  return { ...parsed.data, timeline: preset.state.timeline };
}

function loadPreset(file: string): AudioState {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (err) {
    throw new UsageError(`Cannot read preset ${file}: ${(err as Error).message}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new UsageError(`Invalid preset in ${file}: not JSON (${(err as Error).message})`);
  }
  return validateState(json, file);
}

/** "program.sbg:12: message" (line 0: the whole file). */
function issueText(file: string, i: SbgIssue): string {
  return `${file}${i.line > 0 ? `:${i.line}` : ""}: ${i.message}`;
}

/** An SBaGen schedule, played as SBaGen plays it: in voices (dsp/host/sbg readSbgVoices). */
function loadSbg(file: string): AudioState {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (err) {
    throw new UsageError(`Cannot read schedule ${file}: ${(err as Error).message}`);
  }
  // A -p curve's .sbgf is read beside the schedule.
  const readFile = (name: string) => {
    try {
      return readFileSync(join(dirname(resolve(file)), name), "utf8");
    } catch {
      return null;
    }
  };
  const result = readSbgVoices(text, { readFile });
  for (const w of result.warnings) console.error(`render: warning: ${issueText(file, w)}`);
  if (!result.ok) throw new UsageError(`Invalid schedule ${file}:\n${result.errors.map((e) => `  ${issueText(file, e)}`).join("\n")}`);
  return result.session;
}

/** The soundtrack file to play: --mix, else the one the session names, beside its file (a warning,
 *  and silent mix voices, when it is not there). */
function soundtrackFile(state: AudioState, mix: string | undefined, from: string | undefined): Options["mix"] {
  if (mix !== undefined) {
    const m = /^(.*?)(?:#(\d+))?$/.exec(mix)!;
    return { file: resolve(m[1]), group: m[2] ? Number(m[2]) : 0 };
  }
  const name = state.soundtrack?.name;
  if (!name) return null;
  const beside = join(from ? dirname(resolve(from)) : process.cwd(), name);
  if (existsSync(beside)) return { file: beside, group: 0 };
  console.error(`render: warning: the soundtrack ${name} is not beside ${from ?? "the current folder"} (give it with --mix FILE): the mix voices are silent`);
  return null;
}

/** --recording ID=FILE arguments; a placed recording without one is a warning (it is silent). */
function recordingFiles(state: AudioState, args: string[]): Options["recordings"] {
  const out = args.map((arg) => {
    const eq = arg.indexOf("=");
    if (eq < 1 || eq === arg.length - 1) throw new UsageError(`--recording takes <id>=<file.wav>, got "${arg}"\n\n${USAGE}`);
    return { id: arg.slice(0, eq), file: resolve(arg.slice(eq + 1)) };
  });
  for (const p of state.recordings ?? []) {
    if (!out.some((r) => r.id === p.id)) console.error(`render: warning: no --recording ${p.id}=FILE for the recording ${p.name}: it is silent`);
  }
  return out;
}

/** The voice recordings' files as the clips the engine plays; a file that is not one stops the render. */
async function readRecordings(files: Options["recordings"]): Promise<RecordingClip[]> {
  const clips: RecordingClip[] = [];
  for (const { id, file } of files) {
    let bytes: Uint8Array;
    try {
      bytes = new Uint8Array(await readFile(file));
    } catch (err) {
      throw new UsageError(`Cannot read recording ${file}: ${(err as Error).message}`);
    }
    try {
      clips.push(clipFromWav(id, bytes));
    } catch (err) {
      throw new UsageError(`Invalid recording ${file} (a 16-bit WAV at 48 kHz is needed): ${(err as Error).message}`);
    }
  }
  return clips;
}

/** The soundtrack decoded at the export's rate; a file that cannot be read stops the render. */
async function readSoundtrack(mix: Options["mix"]): Promise<SoundtrackAudio | null> {
  if (!mix) return null;
  const { file, group } = mix;
  let bytes: Uint8Array;
  try {
    bytes = new Uint8Array(readFileSync(file));
  } catch (err) {
    throw new UsageError(`Cannot read soundtrack ${file}: ${(err as Error).message}`);
  }
  try {
    return await loadSoundtrack(bytes, { name: basename(file), rate: 48000, group });
  } catch (err) {
    throw new UsageError(`Invalid soundtrack: ${(err as Error).message}`);
  }
}

/** True when anything sounds at some point: the start or any step of the timeline. */
function soundsAnywhere(state: AudioState): boolean {
  if (hasAudibleChannel(state)) return true;
  const voicesSound = (v: AudioState["voices"]) => !!v?.some((x) => x && x.amp > 0);
  if (voicesSound(state.voices) || state.timeline?.steps.some((s) => voicesSound(s.voices))) return true;
  return hasTimeline(state.timeline) && resolveTimeline(state, state.timeline).some((s) => hasAudibleChannel(s));
}

/** A share link's config value, decoded and validated exactly as the studio does when it opens
 *  the link (dsp/host/schema/preset.ts: base64url or standard base64, then the shared preset schema). */
function configState(value: string): AudioState {
  const decoded = decodeConfig(value);
  if (!decoded.ok) throw new UsageError(`Invalid --config: ${decoded.error}.`);
  return decoded.state;
}

function formatClock(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const mm = String(m).padStart(h > 0 ? 2 : 1, "0");
  return `${h > 0 ? `${h}:` : ""}${mm}:${String(s % 60).padStart(2, "0")}`;
}

function formatBytes(n: number): string {
  if (n >= 1e9) return `${(n / 1e9).toFixed(2)} GB`;
  if (n >= 1e6) return `${(n / 1e6).toFixed(1)} MB`;
  return `${(n / 1e3).toFixed(0)} kB`;
}

function progressLine(fraction: number, bytes: number, total: number, elapsed: number): string {
  const width = 28;
  const filled = Math.round(fraction * width);
  const left = fraction > 0 ? (elapsed / fraction) * (1 - fraction) : NaN;
  return (
    `[${"#".repeat(filled)}${"-".repeat(width - filled)}] ${(fraction * 100).toFixed(1).padStart(5)}%  ` +
    `${formatBytes(bytes)} / ${formatBytes(total)}  ${formatClock(elapsed)} elapsed` +
    (Number.isFinite(left) ? `  ${formatClock(left)} left` : "")
  );
}

async function writeAll(fh: import("node:fs/promises").FileHandle, chunk: Uint8Array): Promise<void> {
  for (let off = 0; off < chunk.byteLength; ) {
    const { bytesWritten } = await fh.write(chunk, off, chunk.byteLength - off);
    if (bytesWritten <= 0) throw Object.assign(new Error("No space left on device"), { code: "ENOSPC" });
    off += bytesWritten;
  }
}

function isDiskFull(err: unknown): boolean {
  const code = (err as { code?: string }).code;
  return code === "ENOSPC" || code === "EDQUOT" || code === "EFBIG";
}

interface Options {
  state: AudioState;
  duration: number;
  out: string;
  report: string | null;
  stats: boolean;
  progress: boolean;
  levels: Levels;
  normalize: boolean;
  /** The soundtrack file to load (null: none) and its looping group. */
  mix: { file: string; group: number } | null;
  /** The voice recordings' files by id (--recording). */
  recordings: { id: string; file: string }[];
  /** The file's format (from --out's extension) and its tuning. */
  settings: ExportSettings;
  /** Who encodes FLAC, MP3 and Opus: ffmpeg, or the studio's WebAssembly encoders. */
  encoder: "ffmpeg" | "wasm";
}

function parseOptions(argv: string[]): Options | "help" {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        preset: { type: "string" },
        config: { type: "string" },
        sbg: { type: "string" },
        mix: { type: "string" },
        recording: { type: "string", multiple: true },
        duration: { type: "string" },
        out: { type: "string", short: "o" },
        report: { type: "string" },
        stats: { type: "boolean", default: false },
        normalize: { type: "boolean", default: false },
        "fade-in": { type: "string" },
        "no-limiter": { type: "boolean", default: false },
        bits: { type: "string" },
        "no-dither": { type: "boolean", default: false },
        "mp3-kbps": { type: "string" },
        "mp3-vbr": { type: "string" },
        "opus-kbps": { type: "string" },
        "mp3-quality": { type: "string" },
        "flac-level": { type: "string" },
        encoder: { type: "string" },
        quiet: { type: "boolean", short: "q", default: false },
        help: { type: "boolean", short: "h", default: false },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (err) {
    throw new UsageError(`${(err as Error).message}\n\n${USAGE}`);
  }
  if (values.help) return "help";
  if ([values.preset, values.config, values.sbg].filter((v) => v !== undefined).length !== 1) {
    throw new UsageError(`Give exactly one of --preset, --config or --sbg.\n\n${USAGE}`);
  }
  if (!values.out) throw new UsageError(`Missing --out <file.wav | .flac | .mp3 | .opus>.\n\n${USAGE}`);
  const settings = exportSettings(values.out, values);
  const state = values.preset ? loadPreset(values.preset) : values.sbg ? loadSbg(values.sbg) : configState(values.config!);
  if (!soundsAnywhere(state)) throw new UsageError(NO_CHANNEL);
  const duration = values.duration ? parseDurationArg(values.duration) : state.duration;
  const levels: Levels = {
    ...DEFAULT_LEVELS,
    fadeIn: values["fade-in"] === undefined ? DEFAULT_LEVELS.fadeIn : parseFadeInArg(values["fade-in"]),
    limiter: !values["no-limiter"],
  };
  return {
    state, duration, out: resolve(values.out), report: values.report ? resolve(values.report) : null, stats: values.stats, progress: !values.quiet && process.stderr.isTTY === true,
    levels, normalize: values.normalize, mix: soundtrackFile(state, values.mix, values.preset ?? values.sbg),
    recordings: recordingFiles(state, values.recording ?? []), settings, encoder: encoderChoice(values.encoder, settings),
  };
}

async function render(opts: Options, interrupted: () => boolean): Promise<void> {
  const dir = dirname(opts.out);
  const dirStat = await stat(dir).catch(() => null);
  if (!dirStat?.isDirectory()) throw new UsageError(`Output directory does not exist: ${dir}`);
  if (opts.report && !(await stat(dirname(opts.report)).catch(() => null))?.isDirectory()) {
    throw new UsageError(`Report directory does not exist: ${dirname(opts.report)}`);
  }
  // Devices and pipes (/dev/stdout, a FIFO into ffmpeg) are written directly; regular files go
  // through a temporary name that is renamed once complete.
  const existing = await stat(opts.out).catch(() => null);
  const direct = existing !== null && !existing.isFile();
  const target = direct ? opts.out : join(dir, `.${basename(opts.out)}.${process.pid}.part`);
  const encoded = opts.settings.format !== "wav16" && opts.settings.format !== "wav24";
  // FLAC and MP3 complete their headers at the start once the end is known: a pipe cannot seek back.
  if (direct && encoded) throw new UsageError(`${describeSettings(opts.settings)} is written to a regular file only, not to ${opts.out}; pipe a .wav instead.`);

  const soundtrack = await readSoundtrack(opts.mix);
  const recordings = await readRecordings(opts.recordings);
  const engine = createNodeEngine(48000);
  const collector = opts.report
    ? new ExportReportCollector({ sampleRate: engine.sampleRate, duration: opts.duration, state: opts.state, fadeIn: opts.levels.fadeIn })
    : undefined;
  const settings = opts.settings;
  const format = EXPORT_FORMATS[settings.format];
  const wav = settings.format === "wav16" || settings.format === "wav24";
  const renderer = new WavRenderer(engine, opts.state, opts.duration, {
    levels: opts.levels, normalize: opts.normalize, observer: collector, soundtrack, recordings,
    pcm: format.pcm, container: wav ? "wav" : "raw", dither: settings.dither,
  });
  // WAV's size is exact; an encoded file's is the format's estimate (the progress bar follows the render).
  const total = wav ? renderer.plan.totalBytes : estimatedBytes(settings, renderer.plan.duration);
  const ffmpeg = wav || opts.encoder === "wasm" ? null : requireBinary("ffmpeg").path;
  // Opened first, so a folder that refuses writes (permissions, a read-only disk) is reported
  // as that, not as a lack of space; from here on every failure removes the partial file.
  let fh: import("node:fs/promises").FileHandle;
  try {
    fh = await open(target, "w");
  } catch (err) {
    throw new CannotWrite(opts.out, err);
  }
  // The encoder for FLAC, MP3 and Opus: ffmpeg writes the (already created) file itself.
  let encoder: PcmEncoder | null = null;
  const t0 = performance.now();
  try {
    if (!direct) {
      const fs = await statfs(dir).catch(() => null);
      const free = fs ? fs.bavail * fs.bsize + (existing?.size ?? 0) : Infinity;
      if (free < total) {
        throw Object.assign(new Error(`Not enough disk space in ${dir}: the file needs ${formatBytes(total)}, ${formatBytes(free)} is free.`), { code: "ENOSPC" });
      }
    }
    let lastDraw = 0;
    // Loudness normalisation measures before anything is written.
    for (const steps = renderer.normalise(); !steps.next().done; ) {
      if (interrupted()) throw new Interrupted("Interrupted");
      const now = performance.now();
      if (opts.progress && now - lastDraw > 100) {
        lastDraw = now;
        process.stderr.write(`\r${progressLine(renderer.fraction, 0, total, (now - t0) / 1000)} measuring loudness\x1b[K`);
      }
    }
    if (ffmpeg) encoder = createFfmpegEncoder(settings, target, { ffmpeg });
    else if (!wav) {
      // The studio's libFLAC/LAME (WebAssembly, in a worker thread) writing at its positions.
      // Loaded only here: mediabunny and the encoders add about 90 MB to a WAV render's peak RSS.
      const { createMediabunnyEncoder } = await import("../dsp/host/export/encoders");
      const file = fh;
      encoder = await createMediabunnyEncoder(settings, {
        async write(data, position) {
          for (let off = 0; off < data.byteLength; ) {
            const { bytesWritten } = await file.write(data, off, data.byteLength - off, position + off);
            if (bytesWritten <= 0) throw Object.assign(new Error("No space left on device"), { code: "ENOSPC" });
            off += bytesWritten;
          }
        },
      });
    }
    let inflight: Promise<void> | null = null;
    for (const chunk of renderer.chunks(ffmpeg ? FFMPEG_CHUNK_BYTES : CHUNK_BYTES, 2)) {
      if (inflight) await inflight;
      if (interrupted()) throw new Interrupted("Interrupted");
      inflight = encoder ? encoder.write(chunk) : writeAll(fh, chunk);
      const now = performance.now();
      if (opts.progress && now - lastDraw > 100) {
        lastDraw = now;
        const bytes = wav ? renderer.bytesDone : renderer.fraction * total;
        process.stderr.write(`\r${progressLine(renderer.fraction, bytes, total, (now - t0) / 1000)}\x1b[K`);
      }
    }
    if (inflight) await inflight;
    if (encoder) {
      await encoder.finish();
      encoder = null;
    }
    await fh.close();
    if (!direct) await rename(target, opts.out);
  } catch (err) {
    await encoder?.abort().catch(() => {});
    await fh.close().catch(() => {});
    if (!direct) await rm(target, { force: true });
    throw err instanceof Interrupted ? err : new RenderFailure(err, !direct);
  } finally {
    if (opts.progress) process.stderr.write("\r\x1b[K");
  }

  const wall = (performance.now() - t0) / 1000;
  const x = renderer.plan.duration / wall;
  const size = wav ? total : (await stat(opts.out)).size;
  const kind = wav ? `${renderer.plan.rf64 ? "RF64" : "WAV"}, 48 kHz stereo ${settings.format === "wav24" ? 24 : 16}-bit` : `${describeSettings(settings)}, 48 kHz stereo`;
  console.log(
    `Wrote ${opts.out}: ${size.toLocaleString("en-US")} bytes (${kind}), ` +
      `${formatClock(renderer.plan.duration)} of audio in ${wall.toFixed(wall < 10 ? 2 : 1)} s (${x.toFixed(0)}x realtime).`,
  );
  const n = renderer.normalisation;
  if (n) {
    console.log(
      Number.isFinite(n.measuredLufs)
        ? `Loudness: ${n.measuredLufs.toFixed(1)} LUFS measured, ${n.gainDb >= 0 ? "+" : ""}${n.gainDb.toFixed(2)} dB applied: ${n.resultLufs.toFixed(1)} LUFS (${n.passes} measuring pass${n.passes === 1 ? "" : "es"}).`
        : "Loudness: silent, left unchanged.",
    );
  }
  if (collector && opts.report) {
    let report = collector.finish();
    if (!wav) {
      // The encoded file decoded back by ffmpeg and compared with the render (decoded-check.ts).
      const audio = ffmpegDecoder(opts.out, { ffmpeg: requireBinary("ffmpeg").path, ffprobe: requireBinary("ffprobe").path, sampleRate: engine.sampleRate });
      report = withDecodedCheck(report, await checkDecoded(report, collector.renderedWindows(), format, describeSettings(settings), audio));
    }
    await writeFile(opts.report, opts.report.endsWith(".json") ? JSON.stringify(report, null, 2) + "\n" : formatReport(report));
    console.log(`Report ${opts.report}: ${reportSummary(report)}`);
    for (const line of formatReport(report).split("\n")) if (/^\s*FAIL /.test(line)) console.log(line);
  }
  if (opts.stats) {
    const usage = process.resourceUsage();
    const stats = { format: settings.format, wallSeconds: wall, audioSeconds: renderer.plan.duration, bytes: size, xRealtime: x, mbPerSecond: size / 1e6 / wall, maxRssMB: usage.maxRSS / 1024 };
    console.log("RENDER_STATS " + JSON.stringify(stats));
  }
}

async function main(argv: string[]): Promise<number> {
  let stop = false;
  const onSignal = () => {
    if (stop) process.exit(130); // second Ctrl+C: leave at once (the .part file may remain)
    stop = true;
  };
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
  // With RLIMIT_FSIZE set, writing past it raises SIGXFSZ; handling it makes the write fail with
  // EFBIG instead of killing the process, so the partial file is still removed.
  process.on("SIGXFSZ", () => {});
  try {
    const opts = parseOptions(argv);
    if (opts === "help") {
      console.log(USAGE);
      return 0;
    }
    await render(opts, () => stop);
    return 0;
  } catch (err) {
    if (err instanceof UsageError) {
      console.error(`render: ${err.message}`);
      return 2;
    }
    if (err instanceof Interrupted) {
      console.error("render: interrupted; the partial file was removed.");
      return 130;
    }
    if (err instanceof CannotWrite) {
      console.error(`render: ${err.message}`);
      return 1;
    }
    const removed = err instanceof RenderFailure && err.removed ? " The partial file was removed." : "";
    const cause = err instanceof RenderFailure ? err.cause : err;
    const message = (cause instanceof Error ? cause.message : String(cause)).replace(/\.$/, "");
    console.error(isDiskFull(cause) ? `render: disk full: ${message}.${removed}` : `render: ${message}.${removed}`);
    return 1;
  }
}

process.exitCode = await main(process.argv.slice(2));
