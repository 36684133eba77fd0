// Decodes a soundtrack file (WAV, FLAC, OGG Vorbis or MP3, told apart by their first bytes) and
// brings it to the engine's rate, with the same WebAssembly decoders and resampler in the browser,
// the export worker and Node, so a session with a soundtrack renders the same bytes everywhere:
// @wasm-audio-decoders/flac, @wasm-audio-decoders/ogg-vorbis and mpg123-decoder decode,
// libsamplerate (@alexanderolsen/libsamplerate-js, its "medium" sinc converter: flat to 20 kHz
// and 97 dB of rejection) resamples. WAV is read here (./wav.ts).

import { DEFAULT_LOOP_FADE_SECONDS, MAX_SOUNDTRACK_SECONDS, type SoundtrackAudio } from "../model/soundtrack";
import { findLooperTag, parseLooperSpec } from "./looper";
import { isWav, readWav, type DecodedAudio } from "./wav";

export type SoundtrackFormat = "wav" | "flac" | "ogg" | "mp3";

/** The format from the file's first bytes, or null. */
export function soundtrackFormat(b: Uint8Array): SoundtrackFormat | null {
  const at = (i: number, s: string) => [...s].every((c, k) => b[i + k] === c.charCodeAt(0));
  if (isWav(b)) return "wav";
  if (at(0, "fLaC")) return "flac";
  if (at(0, "OggS")) return "ogg";
  if (at(0, "ID3") || (b[0] === 0xff && (b[1] & 0xe0) === 0xe0)) return "mp3";
  return null;
}

export class SoundtrackError extends Error {}

/** The file's samples at its own rate. */
export async function decodeAudioFile(bytes: Uint8Array, name = "the soundtrack"): Promise<DecodedAudio> {
  const format = soundtrackFormat(bytes);
  if (!format) throw new SoundtrackError(`${name} is not a WAV, FLAC, OGG or MP3 file`);
  if (format === "wav") {
    try {
      return readWav(bytes);
    } catch (err) {
      throw new SoundtrackError(`${name}: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
  const decoded = await decodeCompressed(format, bytes);
  if (decoded.samplesDecoded === 0 || decoded.channelData.length === 0) throw new SoundtrackError(`${name} has no audio the ${format.toUpperCase()} decoder could read`);
  return { sampleRate: decoded.sampleRate, channels: decoded.channelData.map((c) => c.subarray(0, decoded.samplesDecoded)) };
}

interface Decoded {
  channelData: Float32Array[];
  samplesDecoded: number;
  sampleRate: number;
}

async function decodeCompressed(format: Exclude<SoundtrackFormat, "wav">, bytes: Uint8Array): Promise<Decoded> {
  if (format === "flac") {
    const { FLACDecoder } = await import("@wasm-audio-decoders/flac");
    const d = new FLACDecoder();
    await d.ready;
    try {
      return await d.decodeFile(bytes);
    } finally {
      d.free();
    }
  }
  if (format === "ogg") {
    const { OggVorbisDecoder } = await import("@wasm-audio-decoders/ogg-vorbis");
    const d = new OggVorbisDecoder();
    await d.ready;
    try {
      return await d.decodeFile(bytes);
    } finally {
      d.free();
    }
  }
  const { MPEGDecoder } = await import("mpg123-decoder");
  const d = new MPEGDecoder();
  await d.ready;
  try {
    return d.decode(bytes);
  } finally {
    d.free();
  }
}

/** Planar channels resampled from `from` to `to` Hz (the same arrays when the rates match). */
export async function resample(channels: Float32Array[], from: number, to: number): Promise<Float32Array[]> {
  if (from === to) return channels;
  const { create, ConverterType } = await import("@alexanderolsen/libsamplerate-js");
  const n = channels.length;
  const frames = channels[0].length;
  const interleaved = new Float32Array(frames * n);
  for (let c = 0; c < n; c++) for (let f = 0; f < frames; f++) interleaved[f * n + c] = channels[c][f];
  const src = await create(n, from, to, { converterType: ConverterType.SRC_SINC_MEDIUM_QUALITY });
  let out: Float32Array;
  try {
    out = src.simple(interleaved);
  } finally {
    src.destroy();
  }
  const outFrames = Math.floor(out.length / n);
  return Array.from({ length: n }, (_, c) => {
    const ch = new Float32Array(outFrames);
    for (let f = 0; f < outFrames; f++) ch[f] = out[f * n + c];
    return ch;
  });
}

export interface LoadOptions {
  /** The file's name (for messages and the session). */
  name: string;
  /** The engine's rate. */
  rate: number;
  /** SBaGen's looping group (file.ogg#1 is group 1). */
  group?: number;
}

/** A soundtrack file as the engine plays it: decoded, at `rate`, 16-bit stereo, with its loop. */
export async function loadSoundtrack(bytes: Uint8Array, opts: LoadOptions): Promise<SoundtrackAudio> {
  const decoded = await decodeAudioFile(bytes, opts.name);
  const longest = Math.ceil(MAX_SOUNDTRACK_SECONDS * decoded.sampleRate);
  const seconds = decoded.channels[0].length / decoded.sampleRate;
  if (decoded.channels[0].length > longest) {
    throw new SoundtrackError(`${opts.name} is ${Math.round(seconds / 60)} minutes long; a soundtrack loops and may be at most ${MAX_SOUNDTRACK_SECONDS / 60} minutes`);
  }
  const stereo = decoded.channels.length === 1 ? [decoded.channels[0], decoded.channels[0]] : decoded.channels.slice(0, 2);
  const [l, r] = await resample(stereo, decoded.sampleRate, opts.rate);
  const frames = l.length;
  const pcm = new Int16Array(frames * 2);
  for (let f = 0; f < frames; f++) {
    pcm[2 * f] = toInt16(l[f]);
    pcm[2 * f + 1] = toInt16(r[f]);
  }
  const tag = findLooperTag(bytes);
  const spec = tag ? parseLooperSpec(tag, opts.group ?? 0) : {};
  const at = (s: number | undefined, fallback: number) => (s === undefined ? fallback : Math.min(frames, Math.max(0, Math.round(s * opts.rate))));
  const loopStart = at(spec.from, 0);
  const loopEnd = Math.max(loopStart, at(spec.to, frames));
  const loopFade = Math.min(Math.round((spec.fade ?? DEFAULT_LOOP_FADE_SECONDS) * opts.rate), (loopEnd - loopStart) >> 1);
  return { name: opts.name, rate: opts.rate, frames, pcm, loopStart, loopEnd, loopFade };
}

function toInt16(x: number): number {
  const v = Math.round(x * 32768);
  return v > 32767 ? 32767 : v < -32768 ? -32768 : v;
}
