// Streaming encoders for the compressed export formats, through mediabunny (muxing: FLAC, MP3 with
// its Xing index, Ogg) with @mediabunny/flac-encoder (libFLAC) and @mediabunny/mp3-encoder (LAME),
// both WebAssembly and both run in their own worker thread by the package (a Web Worker in the
// browser, a worker_thread in Node), so encoding uses a second core while the engine renders.
// VBR MP3 takes LAME from wasm-media-encoders instead (mp3-vbr.ts: its build has VBR), with the
// frames muxed by mediabunny's MP3 muxer as the constant-bitrate ones are.
// Opus goes through the browser's WebCodecs AudioEncoder where there is one (the studio offers
// it only then: web/export/format-choice.ts); the command line uses ffmpeg (ffmpeg-encoder.ts).
//
// Memory stays bounded for any length: the caller hands over one chunk of PCM at a time (the
// renderer's raw output), each becomes one AudioSample, and the muxer's bytes reach the caller's
// ByteSink through a StreamTarget in chunks of at most TARGET_CHUNK_BYTES. Awaiting write() is the
// backpressure: it resolves when the encoder and the sink are ready for more. The muxers seek back
// only to finish their headers (FLAC's STREAMINFO, MP3's Xing frame), hence positioned writes.
//
// Samples: FLAC 16-bit and MP3 get the engine's dithered PCM16, the very bytes of the 16-bit WAV, so
// a FLAC decodes bit-identical to the WAV of the same render; FLAC 24-bit gets the engine's PCM24
// widened to s32 (the encoder takes the top 24 bits); Opus gets the float output.

import { AudioSample, AudioSampleSource, EncodedAudioPacketSource, EncodedPacket, FlacOutputFormat, Mp3OutputFormat, OggOutputFormat, Output, Quality, StreamTarget } from "mediabunny";
import type { StreamTargetChunk } from "mediabunny";
import { registerFlacEncoder } from "@mediabunny/flac-encoder";
import { registerMp3Encoder } from "@mediabunny/mp3-encoder";
import { DEFAULT_MP3_KBPS, DEFAULT_OPUS_KBPS, EXPORT_FORMATS, type ExportSettings } from "./formats";
import { createVbrLame, MP3_FRAME_SAMPLES, Mp3FrameSplitter } from "./mp3-vbr";

/** Where an encoder's bytes go: `data` at byte `position` of the file. */
export interface ByteSink {
  write(data: Uint8Array, position: number): Promise<void>;
}

/** One export's encoder: interleaved stereo PCM in, finished file bytes out to its sink. */
export interface PcmEncoder {
  /** Encodes the next frames (bytes in the format's `pcm` sample type; copied before return). */
  write(pcm: Uint8Array): Promise<void>;
  /** Flushes the encoder and completes the file's headers. */
  finish(): Promise<void>;
  /** Stops without completing the file (the caller removes it). */
  abort(): Promise<void>;
}

const SAMPLE_RATE = 48000;
const CHANNELS = 2;
/** Largest write the muxer's target makes (it gathers smaller ones up to this). */
export const TARGET_CHUNK_BYTES = 1 << 20;

let registered = false;
function register(): void {
  if (registered) return;
  registered = true;
  // The packages' own instructions: register once, before the first output. No browser encodes
  // FLAC natively; WebCodecs' MP3 encoding, where a browser may add it, is left unused so every
  // platform writes the same LAME stream.
  registerFlacEncoder();
  registerMp3Encoder();
}

/** Starts an encoder for a FLAC, MP3 (constant or variable bitrate) or (with WebCodecs) Opus
 *  export writing into `sink`. */
export async function createMediabunnyEncoder(settings: ExportSettings, sink: ByteSink): Promise<PcmEncoder> {
  register();
  const format = EXPORT_FORMATS[settings.format];
  if (settings.format === "mp3" && settings.mp3?.kind === "vbr") return createVbrMp3Encoder(settings.mp3.quality, sink);
  let outputFormat;
  let source: AudioSampleSource;
  if (settings.format === "flac16" || settings.format === "flac24") {
    outputFormat = new FlacOutputFormat();
    source = new AudioSampleSource({ codec: "flac" });
  } else if (settings.format === "mp3") {
    const kbps = settings.mp3?.kind === "cbr" ? settings.mp3.kbps : DEFAULT_MP3_KBPS;
    outputFormat = new Mp3OutputFormat();
    source = new AudioSampleSource({ codec: "mp3", quality: new Quality({ bitrate: kbps * 1000, bitrateMode: "constant" }) });
  } else if (settings.format === "opus") {
    outputFormat = new OggOutputFormat();
    source = new AudioSampleSource({ codec: "opus", quality: new Quality({ bitrate: (settings.opusKbps ?? DEFAULT_OPUS_KBPS) * 1000 }) });
  } else {
    throw new Error(`${format.label} is written by the WAV renderer, not an encoder`);
  }

  const out = await openOutput(outputFormat, source, sink);
  let frames = 0;
  const pcm = format.pcm;
  return {
    async write(bytes) {
      if (bytes.byteLength === 0) return;
      let sample: AudioSample;
      if (pcm === "s16") {
        sample = new AudioSample({ data: bytes.slice(), format: "s16", numberOfChannels: CHANNELS, sampleRate: SAMPLE_RATE, timestamp: frames / SAMPLE_RATE });
      } else if (pcm === "s24") {
        sample = new AudioSample({ data: widen24(bytes), format: "s32", numberOfChannels: CHANNELS, sampleRate: SAMPLE_RATE, timestamp: frames / SAMPLE_RATE });
      } else {
        sample = new AudioSample({ data: bytes.slice(), format: "f32", numberOfChannels: CHANNELS, sampleRate: SAMPLE_RATE, timestamp: frames / SAMPLE_RATE });
      }
      frames += sample.numberOfFrames;
      try {
        await out.guard(() => source.add(sample));
      } finally {
        sample.close();
      }
    },
    finish: () => out.finish(),
    abort: () => out.abort(),
  };
}

/** VBR MP3: LAME from wasm-media-encoders (mp3-vbr.ts) in a worker of its own, its frames muxed
 *  by mediabunny (the Xing frame with the frame count and seek table). */
async function createVbrMp3Encoder(quality: number, sink: ByteSink): Promise<PcmEncoder> {
  const lame = await createVbrLame(quality);
  const source = new EncodedAudioPacketSource("mp3");
  let out: OpenOutput;
  try {
    out = await openOutput(new Mp3OutputFormat(), source, sink);
  } catch (err) {
    lame.close();
    throw err;
  }
  const splitter = new Mp3FrameSplitter();
  let index = 0;
  const seconds = MP3_FRAME_SAMPLES / SAMPLE_RATE;
  const add = async (bytes: Uint8Array) => {
    for (const frame of splitter.push(bytes)) {
      const meta = index === 0 ? { decoderConfig: { codec: "mp3", numberOfChannels: CHANNELS, sampleRate: SAMPLE_RATE } } : undefined;
      await source.add(new EncodedPacket(frame, "key", index * seconds, seconds), meta);
      index++;
    }
  };
  return {
    async write(bytes) {
      if (bytes.byteLength === 0) return;
      const pcm = bytes.byteOffset % 2 === 0 ? new Int16Array(bytes.buffer, bytes.byteOffset, bytes.byteLength >> 1) : new Int16Array(bytes.slice().buffer);
      await out.guard(async () => add(await lame.encode(pcm)));
    },
    async finish() {
      try {
        await out.guard(async () => {
          await add(await lame.finalize());
          splitter.end();
        });
        await out.finish();
      } finally {
        lame.close();
      }
    },
    async abort() {
      lame.close();
      await out.abort();
    },
  };
}

interface OpenOutput {
  /** Runs `step`, throwing the sink's own error (a full disk) rather than the muxer's report of it. */
  guard(step: () => Promise<void>): Promise<void>;
  finish(): Promise<void>;
  abort(): Promise<void>;
}

/** A started mediabunny Output of `source` writing into `sink` in chunks of at most TARGET_CHUNK_BYTES. */
async function openOutput(outputFormat: FlacOutputFormat | Mp3OutputFormat | OggOutputFormat, source: AudioSampleSource | EncodedAudioPacketSource, sink: ByteSink): Promise<OpenOutput> {
  let sinkError: unknown = null;
  const writable = new WritableStream<StreamTargetChunk>({
    async write(chunk) {
      try {
        await sink.write(chunk.data, chunk.position);
      } catch (err) {
        sinkError ??= err;
        throw err;
      }
    },
  });
  const output = new Output({ format: outputFormat, target: new StreamTarget(writable, { chunked: true, chunkSize: TARGET_CHUNK_BYTES }) });
  output.addAudioTrack(source);
  await output.start();
  const guard = async (step: () => Promise<void>) => {
    try {
      await step();
    } catch (err) {
      throw sinkError ?? err;
    }
  };
  return {
    guard,
    finish: () => guard(() => output.finalize()),
    async abort() {
      if (output.state !== "finalized" && output.state !== "canceled") await output.cancel().catch(() => {});
    },
  };
}

/** Little-endian 24-bit samples (3 bytes) as s32 with the value in the top 24 bits. */
function widen24(bytes: Uint8Array): Int32Array {
  const n = bytes.byteLength / 3;
  const out = new Int32Array(n);
  for (let i = 0, j = 0; i < n; i++, j += 3) out[i] = (bytes[j] << 8) | (bytes[j + 1] << 16) | (bytes[j + 2] << 24);
  return out;
}
