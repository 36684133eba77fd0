// The WAV export renderer shared by the browser's export worker and the command-line renderer:
// applies a state to an Engine, plays it for exactly `duration` seconds (no start delay; the
// engine fades out and stops at the end) and produces the file's bytes in order, header first.
// Memory stays bounded whatever the duration: only the caller's chunk buffers are ever held.
// Both callers use the same code, seed and frame count, so they write byte-identical files.

import type { Engine } from "./engine";
import type { SoundState } from "./state";
import { WAV_BLOCK_ALIGN, WAV_SAMPLE_RATE, wavHeader, wavLayout, type WavLayout } from "./wav";

/** Default chunk: 1 MiB of PCM (262144 frames, 5.46 s of audio). */
export const DEFAULT_CHUNK_BYTES = 1 << 20;
/** The dither seed every export uses (the file depends only on the state and the duration). */
export const EXPORT_DITHER_SEED = 0x5eed_0001;

export interface ExportPlan extends WavLayout {
  duration: number;
  sampleRate: number;
}

/** The file an export of `duration` seconds produces (48 kHz stereo PCM16). */
export function exportPlan(duration: number, sampleRate = WAV_SAMPLE_RATE): ExportPlan {
  if (!Number.isFinite(duration) || duration <= 0) throw new RangeError(`Invalid duration: ${duration}`);
  return { ...wavLayout(Math.round(duration * sampleRate)), duration, sampleRate };
}

/** Streams one export. `read(buffer)` fills a caller-owned buffer with the next bytes of the file. */
export class WavRenderer {
  readonly plan: ExportPlan;
  private readonly engine: Engine;
  private framesDone = 0;
  private headerDone = false;
  private bytes = 0;

  constructor(engine: Engine, state: SoundState, duration: number) {
    if (engine.sampleRate !== WAV_SAMPLE_RATE) throw new RangeError(`Export needs a ${WAV_SAMPLE_RATE} Hz engine`);
    this.plan = exportPlan(duration, engine.sampleRate);
    this.engine = engine;
    engine.apply(state);
    engine.setDitherSeed(EXPORT_DITHER_SEED);
    engine.start({ delay: 0, duration: this.plan.frames / engine.sampleRate });
  }

  get bytesDone(): number {
    return this.bytes;
  }

  get done(): boolean {
    return this.bytes >= this.plan.totalBytes;
  }

  /** 0..1 of the file produced so far. */
  get fraction(): number {
    return this.plan.totalBytes === 0 ? 1 : this.bytes / this.plan.totalBytes;
  }

  /** Writes the next bytes of the file into `out` from its start and returns how many: the whole
   *  buffer (rounded down to whole frames) until the end of the file, fewer for the last chunk,
   *  0 when done. `out` must hold at least the header plus one frame. */
  read(out: Uint8Array): number {
    let pos = 0;
    if (!this.headerDone) {
      const header = wavHeader(this.plan.dataBytes, this.plan.sampleRate);
      if (out.byteLength < header.byteLength + WAV_BLOCK_ALIGN) throw new RangeError("Chunk buffer too small");
      out.set(header, 0);
      pos = header.byteLength;
      this.headerDone = true;
    }
    const engine = this.engine;
    const room = Math.floor((out.byteLength - pos) / WAV_BLOCK_ALIGN);
    let frames = Math.min(room, this.plan.frames - this.framesDone);
    while (frames > 0) {
      const n = Math.min(frames, engine.maxFrames);
      out.set(engine.renderPcm16(n), pos); // PCM16 + dither were made inside the engine
      pos += n * WAV_BLOCK_ALIGN;
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
