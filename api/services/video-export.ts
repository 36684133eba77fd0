// Server-side video export: renders the studio's sound with the same wasm engine as the
// WAV export (dsp/host/export/render.ts, same seed, same bytes) and streams it through ffmpeg into
// an H.264 + AAC MP4 that streams back to the client.
//
// - Nothing touches the disk: the WAV goes into ffmpeg's stdin in 0.5 s chunks (rendered on demand,
//   paced by the pipe's back-pressure), and the MP4 leaves through its stdout as a fragmented MP4
//   (`frag_keyframe+empty_moov+default_base_moof`: the moov box comes first and is empty, every
//   2-second fragment carries its own index), so the first bytes reach the client at once and
//   memory stays bounded whatever the duration. A `+faststart` file would need the whole MP4 on
//   disk before its first byte could be sent. Each job still gets a private, empty working
//   directory as ffmpeg's cwd, removed afterwards, so nothing ffmpeg could write outlives a job.
// - 'black' is a black `color` source at 2 fps (a still frame: a higher rate only costs time);
//   'black_waveform' draws the sound itself with ffmpeg's `showwaves` (point-to-point trace in the
//   studio's waveform colour and scale, 25 fps, each frame the last 40 ms of sound), drawn at half
//   size and scaled up: showwaves draws 1-pixel lines, which 4:2:0 chroma washes out to grey, and
//   the doubled line keeps its colour at no extra cost. No B-frames: a fragmented MP4 has no edit list
//   to hide the reordering delay, so audio and video both start at 0.
// - ffmpeg is spawned with an argument array, never a shell; nothing from the request reaches its
//   arguments except the validated enums (mapped to fixed sizes) and the duration number.
// - At most `maxRunning` jobs encode at once, within a memory budget for the recordings they
//   hold (`memoryBudgetBytes`), and `maxQueued` wait for a slot; beyond that the caller gets 429
//   with Retry-After. An export's recordings are read from the file store only once it has its
//   slot, streamed and mixed down chunk by chunk (services/recordings.ts), so waiting exports hold
//   nothing. A watchdog kills an ffmpeg that takes no input and gives no output for
//   `stallTimeoutMs` (60 s) while nothing holds its output back, and fails the export with
//   VIDEO_TEXT.stalled, so a hung encoder cannot hold a slot.
// - A client that goes away (the request's AbortSignal, or the
//   response stream being cancelled) kills ffmpeg with SIGKILL and stops the rendering; the slot is
//   released and the working directory removed only once the process has exited. ffmpeg runs
//   at niceness 10 so that encoding does not slow the API's other answers.
import { spawn, type ChildProcessByStdio } from "node:child_process";
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { setPriority, tmpdir } from "node:os";
import { join } from "node:path";
import type { Readable, Writable } from "node:stream";
import { WavRenderer } from "../../dsp/host/export/render";
import { createNodeEngine } from "../../dsp/host/node";
import type { RecordingClip } from "../../dsp/host/model/recordings";
import type { RecordingFile } from "../rules/recordings";
import type { Levels } from "../../dsp/host/schema/levels";
import type { SoundState } from "../../dsp/host/schema/state";
import { ApiError } from "../errors";
import { findFfmpeg } from "../platform/binaries";
import type { Logger } from "../errors";
import { VIDEO_SIZES, VIDEO_TEXT, type VideoBackground, type VideoQuality } from "../rules/video";

/** FFMPEG_PATH, else the system's ffmpeg (Debian's, on PATH), else the one @ffmpeg-installer/ffmpeg
 *  ships (api/platform/binaries.ts); with none, a name that fails to start (the export answers 503). */
export const DEFAULT_FFMPEG_PATH = findFfmpeg()?.path ?? "ffmpeg";

export interface VideoExportOptions {
  ffmpegPath: string;
  /** Parent of the jobs' private working directories. */
  tmpDir: string;
  /** Jobs encoding at once. */
  maxRunning: number;
  /** Jobs waiting for a slot; one more answers 429. */
  maxQueued: number;
  /** Retry-After of that 429. */
  retryAfterSeconds: number;
  /** Bytes of recordings the renders may hold at once (each export's from recordingBytesHeld):
   *  an export that would pass it waits for a slot like one over maxRunning (a lone export always
   *  runs). */
  memoryBudgetBytes: number;
  /** ffmpeg taking no input and giving no output for this long (while its output is not held
   *  back by a slow reader) is killed and its export fails with VIDEO_TEXT.stalled. */
  stallTimeoutMs: number;
}

export const DEFAULT_VIDEO_OPTIONS: VideoExportOptions = {
  ffmpegPath: DEFAULT_FFMPEG_PATH,
  tmpDir: join(tmpdir(), "tone-studio-video"),
  maxRunning: 2,
  maxQueued: 2,
  retryAfterSeconds: 30,
  // One render's full store (20 minutes of mono, 115.2 MB) at a time, and lighter ones beside it:
  // the server stays under 400 MB with every slot busy (docs/performance.md).
  memoryBudgetBytes: 160_000_000,
  stallTimeoutMs: 60_000,
};

/** What an export brings into a render slot: its recordings, read only once the slot is granted
 *  (the waiting ones hold nothing) straight into the engine's store, and how many bytes they hold. */
export interface RecordingSource {
  bytes: number;
  /** The clips' ids and lengths, in the order the engine stores them (usedClips). */
  clips: readonly { id: string; frames: number }[];
  /** Fills the engine's room for them (Engine.reserveRecordingClips). */
  fill(clips: readonly RecordingClip[]): Promise<void>;
}

export interface VideoJob {
  background: VideoBackground;
  quality: VideoQuality;
  /** Seconds (validated: 1 s up to the role's video limit). */
  duration: number;
  sound: SoundState;
  /** The listener's levels the sound is rendered with; none: the engine's neutral default. */
  levels?: Levels;
  /** The files of the account's voice recordings the sound places (services/recordings.ts), read
   *  into clips when the render starts. */
  recordingFiles?: RecordingFile[];
}

/** Frame rate of the still black background. */
export const BLACK_FPS = 2;
/** Frame rate of the waveform. */
export const WAVEFORM_FPS = 25;
/** x264 quality of the waveform: a thin line on black looks the same as at the default 23 and the
 *  file is about 27 % smaller (default patch at 720p: 8.7 instead of 11.8 MB per minute). */
const WAVEFORM_CRF = 28;
/** Keyframe (and so fragment) spacing. */
const GOP_SECONDS = 2;
/** The studio's waveform trace (web/displays/WaveformDisplay.tsx) and its scale: a sample s is drawn
 *  s * 1.6 heights from the centre, which is showwaves' half-height scale times 3.2. */
const TRACE_COLOUR = "0x7dd3fc";
const TRACE_GAIN = 3.2;
const AUDIO_BITRATE = "192k";
/** 0.5 s of 48 kHz stereo PCM16 per write. */
const PCM_CHUNK_BYTES = 24_000 * 4 * 2;
/** Chunks of MP4 held for a slow client before ffmpeg is paused. */
const OUTPUT_QUEUE_CHUNKS = 16;
const STDERR_TAIL = 4000;
/** ffmpeg runs at this niceness, below the API process. */
const FFMPEG_NICE = 10;

/** ffmpeg's arguments for a job (exported for tests). */
export function ffmpegArgs(job: Pick<VideoJob, "background" | "quality" | "duration">): string[] {
  const { width, height } = VIDEO_SIZES[job.quality];
  const size = `${width}x${height}`;
  const seconds = String(Math.round(job.duration * 1000) / 1000);
  const wavIn = ["-f", "wav", "-i", "pipe:0"];
  const video =
    job.background === "black"
      ? [
          "-f", "lavfi", "-i", `color=c=black:s=${size}:r=${BLACK_FPS}:d=${seconds}`,
          ...wavIn,
          "-map", "0:v", "-map", "1:a",
          "-c:v", "libx264", "-preset", "veryfast", "-tune", "stillimage", "-g", String(BLACK_FPS * GOP_SECONDS),
        ]
      : [
          ...wavIn,
          "-filter_complex",
          `[0:a]asplit=2[a][w];[w]volume=${TRACE_GAIN},` +
            `showwaves=s=${width / 2}x${height / 2}:mode=p2p:rate=${WAVEFORM_FPS}:colors=${TRACE_COLOUR}:draw=full,` +
            `scale=${width}:${height}:flags=bilinear,format=yuv420p[v]`,
          "-map", "[v]", "-map", "[a]",
          "-c:v", "libx264", "-preset", "veryfast", "-crf", String(WAVEFORM_CRF), "-g", String(WAVEFORM_FPS * GOP_SECONDS),
        ];
  return [
    "-hide_banner", "-loglevel", "error", "-nostdin",
    ...video,
    "-bf", "0", "-pix_fmt", "yuv420p",
    "-c:a", "aac", "-b:a", AUDIO_BITRATE,
    "-movflags", "frag_keyframe+empty_moov+default_base_moof",
    "-f", "mp4", "pipe:1",
  ];
}

type Ffmpeg = ChildProcessByStdio<Writable, Readable, Readable>;

export class VideoExporter {
  readonly options: VideoExportOptions;
  readonly #log: Logger;
  #running = 0;
  readonly #waiting: { grant: () => void; bytes: number }[] = [];
  #heldBytes = 0;
  readonly #children = new Set<Ffmpeg>();
  #active = 0; // jobs between acquiring a slot and full cleanup
  #idle: (() => void)[] = [];

  constructor(options: Partial<VideoExportOptions> = {}, log: Logger = { error: () => {} }) {
    const given = Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined));
    this.options = { ...DEFAULT_VIDEO_OPTIONS, ...given } satisfies VideoExportOptions;
    this.#log = log;
  }

  /** Process ids of the live ffmpeg children (tests). */
  get pids(): number[] {
    return [...this.#children].map((c) => c.pid).filter((p): p is number => p !== undefined);
  }

  get running(): number {
    return this.#running;
  }

  get queued(): number {
    return this.#waiting.length;
  }

  /** Resolves once no job is running, waiting or cleaning up (tests, shutdown). */
  idle(): Promise<void> {
    if (this.#quiet()) return Promise.resolve();
    return new Promise((resolve) => this.#idle.push(resolve));
  }

  /** Starts one export and resolves with the MP4 stream once ffmpeg has written its first bytes
   *  (so a missing or failing ffmpeg is still an error answer, not a broken download).
   *  `onProgress` hears the share of the sound rendered into ffmpeg so far (0..1). */
  async export(job: VideoJob, signal: AbortSignal, onProgress?: (fraction: number) => void, source?: RecordingSource): Promise<ReadableStream<Uint8Array>> {
    signal.throwIfAborted();
    const release = await this.#acquire(signal, source?.bytes ?? 0);
    this.#active++;
    let dir: string | null = null;
    const cleanup = async () => {
      if (dir) await rm(dir, { recursive: true, force: true }).catch(() => {});
      release();
      this.#active--;
      this.#checkIdle();
    };
    let renderer: WavRenderer;
    try {
      await mkdir(this.options.tmpDir, { recursive: true });
      dir = await mkdtemp(join(this.options.tmpDir, "job-"));
      const engine = createNodeEngine(48000);
      let recordings: readonly RecordingClip[] = [];
      if (source) {
        recordings = engine.reserveRecordingClips(source.clips);
        await source.fill(recordings);
      }
      signal.throwIfAborted();
      renderer = new WavRenderer(engine, job.sound, job.duration, { levels: job.levels, recordings });
    } catch (err) {
      await cleanup();
      throw err;
    }
    return this.#run(job, renderer, dir, signal, cleanup, onProgress);
  }

  #run(
    job: VideoJob,
    renderer: WavRenderer,
    cwd: string,
    signal: AbortSignal,
    cleanup: () => Promise<void>,
    onProgress?: (fraction: number) => void,
  ): Promise<ReadableStream<Uint8Array>> {
    const child: Ffmpeg = spawn(this.options.ffmpegPath, ffmpegArgs(job), { cwd, stdio: ["pipe", "pipe", "pipe"] });
    this.#children.add(child);
    let stopped = false; // killed on purpose: the client went away, the rendering failed or ffmpeg stalled
    let stalled = false;
    // The watchdog: the last time ffmpeg took input or gave output, and whether its output is held
    // back by a slow reader (then waiting is not ffmpeg's fault).
    let lastMove = Date.now();
    let heldBack = false;
    const moved = () => {
      lastMove = Date.now();
    };
    let renderError: unknown = null;
    let stderr = "";
    let output: ReadableStreamDefaultController<Uint8Array> | null = null;
    let started = false;
    let settle: { resolve: (s: ReadableStream<Uint8Array>) => void; reject: (e: unknown) => void };
    const ready = new Promise<ReadableStream<Uint8Array>>((resolve, reject) => (settle = { resolve, reject }));

    const kill = () => {
      if (stopped) return;
      stopped = true;
      child.kill("SIGKILL");
      child.stdin.destroy();
    };
    const onAbort = () => kill();
    signal.addEventListener("abort", onAbort, { once: true });

    const stream = new ReadableStream<Uint8Array>(
      {
        start: (c) => {
          output = c;
        },
        pull: () => {
          heldBack = false;
          moved();
          child.stdout.resume();
        },
        cancel: () => kill(),
      },
      { highWaterMark: OUTPUT_QUEUE_CHUNKS },
    );

    child.stdout.on("data", (chunk: Buffer) => {
      if (stopped) return;
      moved();
      output!.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
      if ((output!.desiredSize ?? 1) <= 0) {
        heldBack = true;
        child.stdout.pause();
      }
      if (!started) {
        started = true;
        settle.resolve(stream);
      }
    });
    child.stderr.on("data", (chunk: Buffer) => {
      stderr = (stderr + chunk.toString("utf8")).slice(-STDERR_TAIL);
    });
    // EPIPE when ffmpeg quits early, or the destroy() of kill(): the exit code tells what happened.
    child.stdin.on("error", () => {});

    const stallMs = this.options.stallTimeoutMs;
    const watchdog = setInterval(() => {
      if (heldBack || stopped || Date.now() - lastMove < stallMs) return;
      stalled = true;
      this.#log.error("ffmpeg made no progress and was stopped", { seconds: Math.round(stallMs / 1000), stderr: stderr.trim() });
      kill();
    }, Math.max(50, Math.min(1000, stallMs / 4)));
    watchdog.unref();

    let finished = false;
    const finish = (code: number | null, spawnError?: NodeJS.ErrnoException) => {
      if (finished) return;
      finished = true;
      clearInterval(watchdog);
      signal.removeEventListener("abort", onAbort);
      this.#children.delete(child);
      let failure: unknown = null;
      if (spawnError) {
        failure =
          spawnError.code === "ENOENT" || spawnError.code === "EACCES"
            ? new ApiError(503, VIDEO_TEXT.unavailable)
            : spawnError;
        this.#log.error("ffmpeg could not be started", { path: this.options.ffmpegPath, code: spawnError.code });
      } else if (renderError !== null) {
        failure = renderError;
      } else if (stalled) {
        failure = new Error(VIDEO_TEXT.stalled(Math.round(stallMs / 1000)));
      } else if (stopped) {
        failure = signal.aborted ? signal.reason : new Error("Video export cancelled");
      } else if (code !== 0) {
        failure = new Error(VIDEO_TEXT.encodeFailed);
        this.#log.error("ffmpeg failed", { code, stderr: stderr.trim() });
      }
      if (failure === null) {
        try {
          output!.close();
        } catch {
          // already cancelled by the consumer
        }
      } else {
        try {
          output!.error(failure);
        } catch {
          // already cancelled by the consumer
        }
      }
      if (!started) settle.reject(failure ?? new Error(VIDEO_TEXT.encodeFailed));
      void cleanup();
    };
    child.on("error", (err: NodeJS.ErrnoException) => {
      // Only a failed spawn leaves no process behind; other errors (a failed kill) still end in 'close'.
      if (child.pid === undefined) finish(null, err);
    });
    child.on("close", (code) => finish(code));
    child.on("spawn", () => {
      try {
        setPriority(child.pid!, FFMPEG_NICE); // encoding must not slow the API's answers
      } catch {
        // not permitted here: run at normal priority
      }
      this.#pump(renderer, child.stdin, () => stopped || finished, moved, onProgress).catch((err: unknown) => {
        this.#log.error("Video audio rendering failed", { message: err instanceof Error ? err.message : String(err) });
        renderError = err;
        kill();
      });
    });
    return ready;
  }

  /** Renders the sound into ffmpeg's stdin, half a second at a time, as fast as ffmpeg takes it. */
  async #pump(renderer: WavRenderer, stdin: Writable, over: () => boolean, moved: () => void, onProgress?: (fraction: number) => void): Promise<void> {
    while (!renderer.done && !over()) {
      // A fresh buffer per chunk: the pipe may still hold the previous one when write() returns.
      const chunk = new Uint8Array(PCM_CHUNK_BYTES);
      const n = renderer.read(chunk);
      if (n === 0) break;
      onProgress?.(renderer.fraction);
      if (!stdin.write(chunk.subarray(0, n))) {
        await new Promise<void>((resolve) => {
          const done = () => {
            stdin.off("drain", done);
            stdin.off("close", done);
            resolve();
          };
          stdin.on("drain", done);
          stdin.on("close", done);
        });
        moved();
      } else {
        moved();
        // Let the server answer other requests between chunks.
        await new Promise((resolve) => setImmediate(resolve));
      }
    }
    if (!over()) stdin.end();
  }

  /** A slot for an export holding `bytes` of recordings: at once when one of maxRunning is free
   *  and the memory budget has room (or nothing runs), else in the queue (maxQueued; the waiting
   *  hold nothing), else 429 with Retry-After. Slots pass on in arrival order. */
  #acquire(signal: AbortSignal, bytes: number): Promise<() => void> {
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      this.#running--;
      this.#heldBytes -= bytes;
      this.#grantWaiting();
    };
    if (this.#waiting.length === 0 && this.#fits(bytes)) {
      this.#take(bytes);
      return Promise.resolve(release);
    }
    if (this.#waiting.length >= this.options.maxQueued) {
      const s = this.options.retryAfterSeconds;
      return Promise.reject(new ApiError(429, VIDEO_TEXT.busy(s), { "Retry-After": String(s) }));
    }
    return new Promise((resolve, reject) => {
      const entry = {
        bytes,
        grant: () => {
          signal.removeEventListener("abort", onAbort);
          resolve(release);
        },
      };
      const onAbort = () => {
        const i = this.#waiting.indexOf(entry);
        if (i >= 0) this.#waiting.splice(i, 1);
        reject(signal.reason);
        this.#grantWaiting();
        this.#checkIdle();
      };
      signal.addEventListener("abort", onAbort, { once: true });
      this.#waiting.push(entry);
    });
  }

  #fits(bytes: number): boolean {
    return this.#running < this.options.maxRunning && (this.#running === 0 || this.#heldBytes + bytes <= this.options.memoryBudgetBytes);
  }

  #take(bytes: number): void {
    this.#running++;
    this.#heldBytes += bytes;
  }

  /** Grants the waiting exports, first come first served, while they fit. */
  #grantWaiting(): void {
    while (this.#waiting.length > 0 && this.#fits(this.#waiting[0].bytes)) {
      const next = this.#waiting.shift()!;
      this.#take(next.bytes);
      next.grant();
    }
  }

  #quiet(): boolean {
    return this.#active === 0 && this.#running === 0 && this.#waiting.length === 0;
  }

  #checkIdle(): void {
    if (!this.#quiet()) return;
    const waiters = this.#idle;
    this.#idle = [];
    for (const w of waiters) w();
  }
}
