// The Quality Test's "compressed version": the render after a real lossy codec round trip.
//
// First choice, Opus at 12 kbit/s through the browser's own WebCodecs encoder and decoder. At
// that rate Opus runs in wideband mode, so everything above about 8 kHz is gone and what remains
// carries coding noise: what a low-bandwidth stream or a voice call delivers. (Measured in
// Chromium: sine tones up to 7 kHz come back within 0.2 dB; 9 kHz is 68 dB down, 10 kHz more than
// 100 dB.) Where the browser cannot encode Opus, G.711 mu-law at 8 kHz (g711.ts) stands in, and the
// panel says which one plays.

import { g711RoundTrip } from "./g711";
import type { PlanarAudio } from "./planar";

export const OPUS_BITRATE = 12_000;

export interface CodecInfo {
  id: "opus" | "g711";
  /** Short name for buttons and status lines. */
  name: string;
  /** One sentence for the panel. */
  description: string;
}

export const OPUS_CODEC: CodecInfo = {
  id: "opus",
  name: "Opus, 12 kbit/s",
  description:
    "Opus at 12 kbit/s, encoded and decoded by your browser (WebCodecs): the bandwidth of a low-bitrate stream " +
    "or a voice call, about 8 kHz, with its coding noise. High tones and bright effects suffer most.",
};

export const G711_CODEC: CodecInfo = {
  id: "g711",
  name: "G.711 telephone, 8 kHz",
  description:
    "G.711 mu-law, the telephone codec: 8-bit samples at 8 kHz, so nothing above 4 kHz survives (your browser " +
    "cannot encode Opus, so this stands in for a low-bitrate stream).",
};

const opusConfig = (sampleRate: number): AudioEncoderConfig => ({ codec: "opus", sampleRate, numberOfChannels: 2, bitrate: OPUS_BITRATE });

/** Which codec this browser gives the compressed version. */
export async function detectCodec(sampleRate = 48000): Promise<CodecInfo> {
  if (typeof AudioEncoder === "undefined" || typeof AudioDecoder === "undefined" || typeof AudioData === "undefined") return G711_CODEC;
  try {
    const { supported } = await AudioEncoder.isConfigSupported(opusConfig(sampleRate));
    return supported ? OPUS_CODEC : G711_CODEC;
  } catch {
    return G711_CODEC;
  }
}

/** `audio` encoded to Opus at OPUS_BITRATE and decoded back, cut to its original length. The
 *  decoder applies the stream's pre-skip, so the result lines up with the input in time. */
export async function opusRoundTrip(audio: PlanarAudio): Promise<PlanarAudio> {
  const frames = audio.left.length;
  const chunks: EncodedAudioChunk[] = [];
  let decoderConfig: AudioDecoderConfig | undefined;
  let failure: unknown = null;
  const encoder = new AudioEncoder({
    output: (chunk, meta) => {
      chunks.push(chunk);
      if (meta?.decoderConfig) decoderConfig = meta.decoderConfig;
    },
    error: (e) => (failure = e),
  });
  encoder.configure(opusConfig(audio.sampleRate));
  const planar = new Float32Array(frames * 2);
  planar.set(audio.left, 0);
  planar.set(audio.right, frames);
  const data = new AudioData({ format: "f32-planar", sampleRate: audio.sampleRate, numberOfFrames: frames, numberOfChannels: 2, timestamp: 0, data: planar });
  encoder.encode(data);
  data.close();
  await encoder.flush();
  encoder.close();
  if (failure) throw failure;

  const left = new Float32Array(frames);
  const right = new Float32Array(frames);
  let at = 0;
  const decoder = new AudioDecoder({
    output: (d) => {
      const n = Math.min(d.numberOfFrames, frames - at);
      if (n > 0) {
        const l = new Float32Array(d.numberOfFrames);
        const r = new Float32Array(d.numberOfFrames);
        d.copyTo(l, { planeIndex: 0, format: "f32-planar" });
        d.copyTo(r, { planeIndex: 1, format: "f32-planar" });
        left.set(l.subarray(0, n), at);
        right.set(r.subarray(0, n), at);
        at += n;
      }
      d.close();
    },
    error: (e) => (failure = e),
  });
  decoder.configure(decoderConfig ?? { codec: "opus", sampleRate: audio.sampleRate, numberOfChannels: 2 });
  for (const chunk of chunks) decoder.decode(chunk);
  await decoder.flush();
  decoder.close();
  if (failure) throw failure;
  return { sampleRate: audio.sampleRate, left, right };
}

/** The compressed version of `audio` with `codec`. */
export function compress(audio: PlanarAudio, codec: CodecInfo): Promise<PlanarAudio> {
  return codec.id === "opus" ? opusRoundTrip(audio) : Promise.resolve(g711RoundTrip(audio));
}
