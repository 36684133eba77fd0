// The studio's decoder for the export report's decode-back check (decoded-check.ts): mediabunny
// reads the finished file's container (FLAC, MP3, Ogg) and seeks to each of the report's
// windows, so only those are decoded, never the whole file. The decoding itself:
// - the browser's own WebCodecs AudioDecoder where it has one for the codec, so what is checked is
//   what a player on this device will hear;
// - libFLAC or mpg123 in WebAssembly (@wasm-audio-decoders/flac, mpg123-decoder, already here to
//   decode soundtracks) for FLAC and MP3 where the browser has no decoder, or where its decoder
//   fails on a file it claims to play (WebKitGTK 2.50's FLAC decoder: "Decode error"). The
//   report names which one decoded the file.
// Opus has no such fallback; a browser that offers Opus export encodes it with WebCodecs and
// decodes it the same way.

import { ALL_FORMATS, AudioSampleSink, BlobSource, EncodedPacketSink, Input, type EncodedPacket } from "mediabunny";
import type { DecodedAudio } from "./decoded-check";

type Planar = { left: Float32Array; right: Float32Array };

/** MP3 frames lean on the bit reservoir of the frames before them: decoding starts this early. */
const MP3_LEAD_SECONDS = 0.3;

const WEBCODECS = "the browser's WebCodecs decoder";

/** The decoder for `file`, or the reason there is none on this browser. */
export async function mediabunnyDecoder(file: Blob, sampleRate: number): Promise<DecodedAudio | { unavailable: string }> {
  const input = new Input({ source: new BlobSource(file), formats: ALL_FORMATS });
  const track = await input.getPrimaryAudioTrack();
  if (!track) return { unavailable: "the file has no audio track." };
  if (track.sampleRate !== sampleRate || track.numberOfChannels !== 2) {
    return { unavailable: `the file holds ${track.numberOfChannels} channels at ${track.sampleRate} Hz, not stereo at ${sampleRate} Hz.` };
  }
  const codec = track.codec;
  const wasm = codec === "flac" || codec === "mp3" ? codec : null;
  let native = typeof AudioDecoder !== "undefined" && (await track.canDecode().catch(() => false));
  if (!native && !wasm) return { unavailable: `this browser cannot decode ${codec ?? "the file's codec"}.` };
  const samples = native ? new AudioSampleSink(track) : null;
  const packets = new EncodedPacketSink(track);
  const audio: DecodedAudio & { decoder: string; dividesByMaxInteger: boolean } = {
    decoder: native ? WEBCODECS : wasmName(wasm!),
    dividesByMaxInteger: !native && wasm === "flac",
    duration: () => track.computeDuration(),
    async read(from, frames) {
      if (native && samples) {
        try {
          return await readSamples(samples, sampleRate, from, frames);
        } catch (err) {
          if (!wasm) throw err;
          native = false;
          const why = err instanceof Error ? err.message || err.name : String(err);
          audio.decoder = `${wasmName(wasm)}, as ${WEBCODECS} failed on it (${why})`;
          audio.dividesByMaxInteger = wasm === "flac";
        }
      }
      return readPackets(packets, wasm!, sampleRate, from, frames);
    },
    close: () => input.dispose(),
  };
  return audio;
}

function wasmName(codec: "flac" | "mp3"): string {
  return codec === "flac" ? "libFLAC (WebAssembly)" : "mpg123 (WebAssembly)";
}

/** Copies the part of `chunk` (starting at file frame `first`) that falls in [from, from + n). */
function place(out: Planar, from: number, n: number, first: number, left: Float32Array, right: Float32Array): void {
  const s = Math.max(from, first);
  const e = Math.min(from + n, first + left.length);
  if (e <= s) return;
  out.left.set(left.subarray(s - first, e - first), s - from);
  out.right.set(right.subarray(s - first, e - first), s - from);
}

async function readSamples(sink: AudioSampleSink, fs: number, from: number, frames: number): Promise<Planar> {
  const out = { left: new Float32Array(frames), right: new Float32Array(frames) };
  // A little either side: a sample whose start lies before the window may hold its first frames.
  for await (const sample of sink.samples(Math.max(0, from / fs - 0.1), (from + frames) / fs + 0.1)) {
    try {
      const n = sample.numberOfFrames;
      const l = new Float32Array(n);
      const r = new Float32Array(n);
      sample.copyTo(l, { planeIndex: 0, format: "f32-planar" });
      sample.copyTo(r, { planeIndex: 1, format: "f32-planar" });
      place(out, from, frames, Math.round(sample.timestamp * fs), l, r);
    } finally {
      sample.close();
    }
  }
  return out;
}

async function readPackets(sink: EncodedPacketSink, codec: "flac" | "mp3", fs: number, from: number, frames: number): Promise<Planar> {
  const out = { left: new Float32Array(frames), right: new Float32Array(frames) };
  const end = (from + frames) / fs;
  let p: EncodedPacket | null = (await sink.getPacket(Math.max(0, from / fs - (codec === "mp3" ? MP3_LEAD_SECONDS : 0)))) ?? (await sink.getFirstPacket());
  const run: EncodedPacket[] = [];
  while (p && p.timestamp < end) {
    run.push(p);
    p = await sink.getNextPacket(p);
  }
  if (run.length === 0) return out;
  let decoded: { channelData: Float32Array[]; samplesDecoded: number };
  if (codec === "flac") {
    const { FLACDecoder } = await import("@wasm-audio-decoders/flac");
    const d = new FLACDecoder();
    await d.ready;
    try {
      decoded = await d.decodeFrames(run.map((x) => x.data));
    } finally {
      d.free();
    }
  } else {
    const { MPEGDecoder } = await import("mpg123-decoder");
    const d = new MPEGDecoder();
    await d.ready;
    try {
      decoded = d.decodeFrames(run.map((x) => x.data));
    } finally {
      d.free();
    }
  }
  const [l, r] = decoded.channelData;
  place(out, from, frames, Math.round(run[0].timestamp * fs), l.subarray(0, decoded.samplesDecoded), (r ?? l).subarray(0, decoded.samplesDecoded));
  return out;
}
