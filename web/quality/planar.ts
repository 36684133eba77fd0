// Planar stereo audio for the Quality Test, and the conversion from the WAV file the engine
// renders (PCM16, interleaved) to it. Pure, so it is unit-tested in Node.

import { parseWavHeader } from "../../dsp/host/export/wav";

export interface PlanarAudio {
  sampleRate: number;
  left: Float32Array;
  right: Float32Array;
}

/** Seconds of audio in `a`. */
export function durationOf(a: PlanarAudio): number {
  return a.left.length / a.sampleRate;
}

/** The samples of a 16-bit stereo PCM WAV file as floats in [-1, 1). */
export function wavToPlanar(file: Uint8Array): PlanarAudio {
  const info = parseWavHeader(file);
  if (info.formatTag !== 1 || info.bitsPerSample !== 16 || info.channels !== 2) {
    throw new Error(`Expected 16-bit stereo PCM, got format ${info.formatTag}, ${info.bitsPerSample} bits, ${info.channels} channels`);
  }
  const frames = Math.min(info.frames, Math.floor((file.byteLength - info.dataOffset) / 4));
  const view = new DataView(file.buffer, file.byteOffset + info.dataOffset, frames * 4);
  const left = new Float32Array(frames);
  const right = new Float32Array(frames);
  for (let i = 0; i < frames; i++) {
    left[i] = view.getInt16(i * 4, true) / 32768;
    right[i] = view.getInt16(i * 4 + 2, true) / 32768;
  }
  return { sampleRate: info.sampleRate, left, right };
}
