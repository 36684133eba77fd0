// Voice recordings' WAV files (dsp/host/model/recordings.ts): the take as a mono 16-bit WAV at
// 48 kHz (what the studio uploads to /api/recordings), and a stored WAV (16-bit, 48 kHz, mono or
// stereo) read back into the mono clip the engine plays. Used by the studio and by the API's video
// export, which renders the same clips.

import { RECORDING_RATE, type RecordingClip } from "../model/recordings";
import { parseWavHeader } from "./wav";

/** Float samples (-1..1) to 16-bit PCM, rounded and clamped. */
export function toPcm16(x: Float32Array): Int16Array {
  const out = new Int16Array(x.length);
  for (let i = 0; i < x.length; i++) out[i] = Math.max(-32768, Math.min(32767, Math.round(x[i] * 32767)));
  return out;
}

/** A mono 16-bit WAV at 48 kHz holding `pcm`. */
export function monoWav(pcm: Int16Array, rate = RECORDING_RATE): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(44 + pcm.length * 2);
  const v = new DataView(out.buffer);
  const tag = (o: number, t: string) => {
    for (let i = 0; i < 4; i++) v.setUint8(o + i, t.charCodeAt(i));
  };
  tag(0, "RIFF");
  v.setUint32(4, 36 + pcm.length * 2, true);
  tag(8, "WAVE");
  tag(12, "fmt ");
  v.setUint32(16, 16, true);
  v.setUint16(20, 1, true);
  v.setUint16(22, 1, true);
  v.setUint32(24, rate, true);
  v.setUint32(28, rate * 2, true);
  v.setUint16(32, 2, true);
  v.setUint16(34, 16, true);
  tag(36, "data");
  v.setUint32(40, pcm.length * 2, true);
  new Int16Array(out.buffer, 44, pcm.length).set(pcm);
  return out;
}

/** A stored recording's WAV (16-bit, 48 kHz, mono or stereo) as a mono clip. */
export function clipFromWav(id: string, bytes: Uint8Array): RecordingClip {
  const info = parseWavHeader(bytes.subarray(0, Math.min(bytes.length, 4096)));
  if (info.bitsPerSample !== 16 || info.sampleRate !== RECORDING_RATE) throw new Error("not a 16-bit 48 kHz recording");
  const frames = Math.min(info.frames, Math.floor((bytes.length - info.dataOffset) / info.blockAlign));
  const v = new DataView(bytes.buffer, bytes.byteOffset + info.dataOffset, frames * info.blockAlign);
  const pcm = new Int16Array(frames);
  const ch = info.channels;
  for (let i = 0; i < frames; i++) {
    let sum = 0;
    for (let c = 0; c < ch; c++) sum += v.getInt16((i * ch + c) * 2, true);
    pcm[i] = Math.round(sum / ch);
  }
  return { id, rate: info.sampleRate, frames, pcm };
}
