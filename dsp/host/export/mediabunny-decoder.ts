// The studio's decoder for the export report's decode-back check (decoded-check.ts): mediabunny
// reads the finished file's container (FLAC, MP3, Ogg) and the browser's own WebCodecs
// AudioDecoder decodes it, so what is checked is what a player on this device will hear. Only
// the report's windows are decoded (mediabunny seeks to each), never the whole file.

import { ALL_FORMATS, AudioSampleSink, BlobSource, Input } from "mediabunny";
import type { DecodedAudio } from "./decoded-check";

/** The decoder for `file`, or the reason there is none on this browser. */
export async function mediabunnyDecoder(file: Blob, sampleRate: number): Promise<DecodedAudio | { unavailable: string }> {
  const input = new Input({ source: new BlobSource(file), formats: ALL_FORMATS });
  const track = await input.getPrimaryAudioTrack();
  if (!track) return { unavailable: "the file has no audio track." };
  if (typeof AudioDecoder === "undefined") return { unavailable: "this browser has no WebCodecs audio decoder." };
  if (!(await track.canDecode())) return { unavailable: `this browser cannot decode ${track.codec ?? "the file's codec"}.` };
  if (track.sampleRate !== sampleRate || track.numberOfChannels !== 2) {
    return { unavailable: `the decoder gives ${track.numberOfChannels} channels at ${track.sampleRate} Hz, not stereo at ${sampleRate} Hz.` };
  }
  const sink = new AudioSampleSink(track);
  return {
    decoder: "the browser's WebCodecs decoder",
    duration: () => track.computeDuration(),
    async read(from, frames) {
      const left = new Float32Array(frames);
      const right = new Float32Array(frames);
      const end = from + frames;
      // A little either side: a sample whose start lies before the window may hold its first frames.
      for await (const sample of sink.samples(Math.max(0, from / sampleRate - 0.1), end / sampleRate + 0.1)) {
        try {
          const first = Math.round(sample.timestamp * sampleRate);
          const n = sample.numberOfFrames;
          const s = Math.max(from, first);
          const e = Math.min(end, first + n);
          if (e <= s) continue;
          const plane = new Float32Array(n);
          for (const [ch, out] of [[0, left], [1, right]] as const) {
            sample.copyTo(plane, { planeIndex: ch, format: "f32-planar" });
            out.set(plane.subarray(s - first, e - first), s - from);
          }
        } finally {
          sample.close();
        }
      }
      return { left, right };
    },
    close: () => input.dispose(),
  };
}
