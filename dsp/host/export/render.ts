// The WAV export renderer shared by the browser's export worker and the command-line renderer:
// applies a state to an Engine, plays it for exactly `duration` seconds (no start delay; the
// engine fades out and stops at the end) and produces the file's bytes in order, header first:
// 16-bit or 24-bit WAV, or the same PCM without a header (`container: "raw"`), or the float
// output interleaved (`pcm: "f32"`, raw only), which the FLAC, MP3 and Opus encoders are fed.
// Memory stays bounded whatever the duration: only the caller's chunk buffers are ever held.
// Both callers use the same code, seed and frame count, so they write byte-identical files.
//
// Loudness-normalised export: measuring passes render the same state on the same
// engine through the streaming LoudnessMeter (bounded memory), then the file renders with the
// output gain that brings it to NORMALISED_LUFS. The gain sits after the compressor and before the
// limiter, so the sound scales exactly: when the loudest sample times the gain stays clear of the
// limiter's ceiling (LINEAR_PEAK below), one pass is enough, since the result is then exactly the
// measured loudness plus the gain; otherwise the limiter takes a little off the peaks and further
// passes correct the gain (at most MAX_PASSES in all) until the reading is within 0.05 LU.

import type { Engine } from "../engine";
import type { Levels } from "../model/levels";
import { NORMALISED_LUFS } from "../model/levels";
import { LIMITER_CEILING_DBTP, MAX_OUTPUT_GAIN } from "../model/limits";
import { LoudnessMeter, TRUE_PEAK_PHASES } from "../analysis/loudness";
import type { SoundtrackAudio } from "../model/soundtrack";
import type { RecordingClip } from "../model/recordings";
import type { SoundState } from "../schema/state";
import { WAV_SAMPLE_RATE, wavHeader, wavLayout, type WavLayout } from "./wav";

/** The samples an export is made of: the engine's dithered 16-bit or 24-bit PCM, or its floats. */
export type ExportPcm = "s16" | "s24" | "f32";
const BYTES_PER_FRAME: Record<ExportPcm, number> = { s16: 4, s24: 6, f32: 8 };

/** Default chunk: 1 MiB of PCM (262144 frames, 5.46 s of audio). */
export const DEFAULT_CHUNK_BYTES = 1 << 20;
/** The dither seed every export uses (the file depends only on the state and the duration). */
export const EXPORT_DITHER_SEED = 0x5eed_0001;

/** Sees every rendered block before it is encoded (the export report's collector): planar
 *  stereo floats, only valid during the call, and the block's first frame from the file's start. */
export interface BlockObserver {
  push(left: Float32Array, right: Float32Array, firstFrame: number): void;
}

/** Loudness passes at most (the first measures the sound as it is). */
const MAX_PASSES = 4;
/** A pass closer than this to the target ends the search. */
const NORMALISE_TOLERANCE_LU = 0.05;
/** A sample peak under which no limiter (nor the final clamp) can act: the interpolator raises a
 *  sample peak by at most its largest phase's sum of |taps|, and the engine's limiter works 0.3 dB
 *  under its stated ceiling (0.5 dB here for room). */
const LINEAR_PEAK = 10 ** ((LIMITER_CEILING_DBTP - 0.5) / 20) / Math.max(...TRUE_PEAK_PHASES.map((p) => p.reduce((s, v) => s + Math.abs(v), 0)));

export interface ExportOptions {
  /** The listener's levels (fade-in, limiter, balance). Absent: the engine's neutral default. */
  levels?: Levels;
  /** Bring the file to NORMALISED_LUFS integrated loudness. */
  normalize?: boolean;
  /** Sees every block of the file as it renders (the export report). */
  observer?: BlockObserver;
  /** The recording the session's mix voices play, at 48 kHz (dsp/host/soundtrack). */
  soundtrack?: SoundtrackAudio | null;
  /** The voice recordings the session places (AudioState.recordings), mono 16-bit at 48 kHz. */
  recordings?: readonly RecordingClip[];
  /** The samples (default s16: the studio's 16-bit WAV). */
  pcm?: ExportPcm;
  /** "wav" (default): a WAV header first; "raw": the samples alone, for an encoder. */
  container?: "wav" | "raw";
  /** s24 only: TPDF dither at 24 bits (default) or plain rounding. */
  dither?: boolean;
}

export interface Normalisation {
  /** Integrated loudness of the sound as it is (LUFS; -Infinity: silent, left unchanged). */
  measuredLufs: number;
  /** The gain the file is rendered with, in dB (capped at MAX_OUTPUT_GAIN, +24 dB). */
  gainDb: number;
  /** The file's integrated loudness (measured, or exact by linearity when nothing limits). */
  resultLufs: number;
  /** Rendering passes spent measuring. */
  passes: number;
}

export interface ExportPlan extends WavLayout {
  duration: number;
  sampleRate: number;
  pcm: ExportPcm;
  /** Bytes per stereo frame of the samples (4, 6 or 8). */
  frameBytes: number;
}

/** The bytes an export of `duration` seconds produces (48 kHz stereo; PCM16 WAV by default). */
export function exportPlan(duration: number, sampleRate = WAV_SAMPLE_RATE, pcm: ExportPcm = "s16", container: "wav" | "raw" = "wav"): ExportPlan {
  if (!Number.isFinite(duration) || duration <= 0) throw new RangeError(`Invalid duration: ${duration}`);
  if (pcm === "f32" && container === "wav") throw new RangeError("Float samples are exported raw only");
  const frames = Math.round(duration * sampleRate);
  const frameBytes = BYTES_PER_FRAME[pcm];
  if (container === "raw") {
    const dataBytes = frames * frameBytes;
    return { frames, dataBytes, headerBytes: 0, totalBytes: dataBytes, rf64: false, duration, sampleRate, pcm, frameBytes };
  }
  return { ...wavLayout(frames, pcm === "s24" ? 24 : 16), duration, sampleRate, pcm, frameBytes };
}

/** Streams one export. `read(buffer)` fills a caller-owned buffer with the next bytes of the file. */
export class WavRenderer {
  readonly plan: ExportPlan;
  private readonly engine: Engine;
  private framesDone = 0;
  private headerDone = false;
  private bytes = 0;
  private readonly normalize: boolean;
  private measuredFrames = 0;
  /** With normalize: the outcome, once measured (normalise()). */
  normalisation: Normalisation | null = null;
  private readonly observer: BlockObserver | null;
  private readonly header: boolean;
  private readonly dither: boolean;

  constructor(engine: Engine, state: SoundState, duration: number, options: ExportOptions = {}) {
    if (engine.sampleRate !== WAV_SAMPLE_RATE) throw new RangeError(`Export needs a ${WAV_SAMPLE_RATE} Hz engine`);
    this.plan = exportPlan(duration, engine.sampleRate, options.pcm, options.container);
    this.header = options.container !== "raw";
    this.dither = options.dither !== false;
    this.engine = engine;
    this.normalize = options.normalize === true;
    this.observer = options.observer ?? null;
    if (options.soundtrack !== undefined) engine.setSoundtrack(options.soundtrack);
    if (options.recordings !== undefined) engine.setRecordingClips(options.recordings);
    engine.apply(state);
    if (options.levels) engine.setLevels(options.levels);
    engine.setOutputGain(1);
    this.begin();
  }

  private begin(): void {
    this.engine.setDitherSeed(EXPORT_DITHER_SEED);
    this.engine.start({ delay: 0, duration: this.plan.frames / this.engine.sampleRate });
  }

  get bytesDone(): number {
    return this.bytes;
  }

  get done(): boolean {
    return this.bytes >= this.plan.totalBytes;
  }

  /** 0..1 of the work done: with normalize, measuring is the first half and the file the second. */
  get fraction(): number {
    const file = this.plan.totalBytes === 0 ? 1 : this.bytes / this.plan.totalBytes;
    if (!this.normalize) return file;
    return 0.5 * Math.min(1, this.measuredFrames / this.plan.frames) + 0.5 * file;
  }

  /** With normalize, the measuring passes, one render call at a time: yields after every
   *  `stepFrames` frames (so a caller can report progress and stop), returns the outcome and
   *  leaves the engine started again with the gain, ready for read(). read() runs it to the end
   *  when the caller did not. Without normalize it returns null at once. */
  *normalise(stepFrames = 1 << 18): Generator<void, Normalisation | null, void> {
    if (!this.normalize || this.normalisation) return this.normalisation;
    const engine = this.engine;
    const frames = this.plan.frames;
    let gain = 1;
    let measured = Number.NaN;
    let result: number;
    let passes = 0;
    for (;;) {
      engine.setOutputGain(gain);
      this.begin();
      const meter = new LoudnessMeter(engine.sampleRate, 2);
      let samplePeak = 0;
      for (let done = 0, sinceYield = 0; done < frames; ) {
        const n = Math.min(engine.maxFrames, frames - done);
        const { left, right } = engine.render(n);
        meter.push(left, right);
        for (let i = 0; i < n; i++) samplePeak = Math.max(samplePeak, Math.abs(left[i]), Math.abs(right[i]));
        done += n;
        if (passes === 0) this.measuredFrames = done;
        sinceYield += n;
        if (sinceYield >= stepFrames && done < frames) {
          sinceYield = 0;
          yield;
        }
      }
      passes++;
      const lufs = meter.integrated();
      if (passes === 1) measured = lufs;
      result = lufs;
      if (!Number.isFinite(lufs)) break; // silent: nothing to normalise
      const next = Math.min(MAX_OUTPUT_GAIN, gain * 10 ** ((NORMALISED_LUFS - lufs) / 20));
      if (passes === 1 && (samplePeak / gain) * next <= LINEAR_PEAK) {
        // Nothing will limit or clamp at that gain: the sound scales exactly.
        gain = next;
        result = lufs + 20 * Math.log10(next);
        break;
      }
      if (Math.abs(NORMALISED_LUFS - lufs) <= NORMALISE_TOLERANCE_LU || passes >= MAX_PASSES || next === gain) break;
      gain = next;
    }
    engine.setOutputGain(gain);
    this.begin();
    this.normalisation = { measuredLufs: measured, gainDb: 20 * Math.log10(gain), resultLufs: result, passes };
    return this.normalisation;
  }

  /** Writes the next bytes of the file into `out` from its start and returns how many: the whole
   *  buffer (rounded down to whole frames) until the end of the file, fewer for the last chunk,
   *  0 when done. `out` must hold at least the header plus one frame. */
  read(out: Uint8Array): number {
    if (this.normalize && !this.normalisation) {
      const steps = this.normalise(Number.MAX_SAFE_INTEGER);
      while (!steps.next().done);
    }
    let pos = 0;
    const { frameBytes, pcm } = this.plan;
    if (!this.headerDone) {
      const header = this.header ? wavHeader(this.plan.dataBytes, this.plan.sampleRate, pcm === "s24" ? 24 : 16) : new Uint8Array(0);
      if (out.byteLength < header.byteLength + frameBytes) throw new RangeError("Chunk buffer too small");
      out.set(header, 0);
      pos = header.byteLength;
      this.headerDone = true;
    }
    const engine = this.engine;
    const room = Math.floor((out.byteLength - pos) / frameBytes);
    let frames = Math.min(room, this.plan.frames - this.framesDone);
    while (frames > 0) {
      const n = Math.min(frames, engine.maxFrames);
      if (pcm === "s16" && !this.observer) {
        out.set(engine.renderPcm16(n), pos); // PCM16 + dither were made inside the engine
      } else {
        // render + encode is renderPcm16 (renderPcm24) with the float block shown in between: same bytes.
        const block = engine.render(n);
        this.observer?.push(block.left, block.right, this.framesDone);
        if (pcm === "s16") out.set(engine.encodePcm16(n), pos);
        else if (pcm === "s24") out.set(engine.encodePcm24(n, this.dither), pos);
        else interleave(block.left, block.right, out, pos);
      }
      pos += n * frameBytes;
      this.framesDone += n;
      frames -= n;
    }
    this.bytes += pos;
    return pos;
  }

  /** The file as a sequence of chunks of `chunkBytes`, cycling through `buffers` reusable buffers:
   *  a yielded chunk stays valid until `buffers - 1` more chunks have been taken, so a consumer
   *  can keep one write in flight while the next chunk renders (buffers = 2). */
  *chunks(chunkBytes = DEFAULT_CHUNK_BYTES, buffers = 2): Generator<Uint8Array, void, void> {
    const pool = Array.from({ length: Math.max(1, buffers) }, () => new Uint8Array(chunkBytes));
    for (let i = 0; !this.done; i = (i + 1) % pool.length) {
      const n = this.read(pool[i]);
      if (n === 0) break;
      yield pool[i].subarray(0, n);
    }
  }
}

/** Writes planar stereo floats into `out` at byte `pos` as interleaved little-endian f32. */
function interleave(left: Float32Array, right: Float32Array, out: Uint8Array, pos: number): void {
  const at = out.byteOffset + pos;
  const n = left.length;
  const dst = at % 4 === 0 ? new Float32Array(out.buffer, at, n * 2) : new Float32Array(n * 2);
  for (let i = 0; i < n; i++) {
    dst[2 * i] = left[i];
    dst[2 * i + 1] = right[i];
  }
  if (dst.buffer !== out.buffer) out.set(new Uint8Array(dst.buffer), pos);
}
