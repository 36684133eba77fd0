// Measurement helpers for DSP tests: render through dsp/host, windowed FFT spectra, peak finding.

import FFT from "fft.js";
import { Engine } from "../../../../dsp/host/engine";
import { createNodeEngine } from "../../../../dsp/host/node";
import { defaultAudioState, type AudioState, type Waveform } from "../../../../dsp/host/schema/state";

export const FS = 48000;

export interface Stereo {
  left: Float32Array;
  right: Float32Array;
}

/** A state with only channel 1 sounding at `freq` with waveform `w` (effects all off). */
export function singleTone(freq: number, w: Waveform = "sine"): AudioState {
  const s = defaultAudioState();
  s.channels = s.channels.map((c, i) => (i === 0 ? { ...c, frequency: freq, waveform: w } : { ...c, enabled: false }));
  return s;
}

export function engineWith(state: AudioState, fs = FS): Engine {
  const e = createNodeEngine(fs);
  e.apply(state);
  return e;
}

/** Renders `frames` frames in calls of `block` frames and returns copies. */
export function renderFrames(engine: Engine, frames: number, block = 4096): Stereo {
  const left = new Float32Array(frames);
  const right = new Float32Array(frames);
  for (let pos = 0; pos < frames; pos += block) {
    const n = Math.min(block, frames - pos);
    const out = engine.render(n);
    left.set(out.left, pos);
    right.set(out.right, pos);
  }
  return { left, right };
}

/** Starts (no delay, no auto-stop) and renders `seconds`. */
export function play(state: AudioState, seconds: number, fs = FS): Stereo & { engine: Engine } {
  const engine = engineWith(state, fs);
  engine.start({ delay: 0 });
  return { ...renderFrames(engine, Math.round(seconds * fs)), engine };
}

/** 4-term Blackman-Harris window (-92 dB side lobes). */
export function blackmanHarris(n: number): Float64Array {
  const w = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const x = (2 * Math.PI * i) / (n - 1);
    w[i] = 0.35875 - 0.48829 * Math.cos(x) + 0.14128 * Math.cos(2 * x) - 0.01168 * Math.cos(3 * x);
  }
  return w;
}

/** Magnitude spectrum (linear, bins 0..size/2) of x[offset..offset+len) windowed and zero-padded to size. */
export function magnitude(x: ArrayLike<number>, size: number, offset = 0, len = Math.min(size, x.length - offset)): Float64Array {
  const fft = new FFT(size);
  const input = new Array<number>(size).fill(0);
  const w = blackmanHarris(len);
  for (let i = 0; i < len; i++) input[i] = x[offset + i] * w[i];
  const out = fft.createComplexArray() as number[];
  fft.realTransform(out, input);
  const mag = new Float64Array(size / 2 + 1);
  for (let k = 0; k <= size / 2; k++) mag[k] = Math.hypot(out[2 * k], out[2 * k + 1]);
  return mag;
}

export const db = (v: number): number => 20 * Math.log10(Math.max(v, 1e-300));

/** Frequency of the strongest bin between minHz and maxHz, refined by a parabola through the
 *  log magnitudes. */
export function peakFrequency(x: ArrayLike<number>, fs = FS, size = nextPow2(x.length), minHz = 1, maxHz = fs / 2): number {
  const mag = magnitude(x, size);
  const k0 = Math.max(1, Math.ceil((minHz * size) / fs));
  const k1 = Math.min(mag.length - 1, Math.floor((maxHz * size) / fs) + 1);
  let k = k0;
  for (let i = k0; i < k1; i++) if (mag[i] > mag[k]) k = i;
  const a = db(mag[k - 1]), b = db(mag[k]), c = db(mag[k + 1]);
  const p = (0.5 * (a - c)) / (a - 2 * b + c);
  return ((k + p) * fs) / size;
}

export function nextPow2(n: number): number {
  return 2 ** Math.ceil(Math.log2(n));
}

/** Level (linear magnitude) at frequency f: the maximum over the bins within ±width Hz. */
export function levelAt(mag: Float64Array, f: number, fs: number, size: number, width = 3): number {
  const lo = Math.max(0, Math.floor(((f - width) * size) / fs));
  const hi = Math.min(mag.length - 1, Math.ceil(((f + width) * size) / fs));
  let m = 0;
  for (let k = lo; k <= hi; k++) m = Math.max(m, mag[k]);
  return m;
}

export function rms(x: ArrayLike<number>, from = 0, to = x.length): number {
  let s = 0;
  for (let i = from; i < to; i++) s += x[i] * x[i];
  return Math.sqrt(s / Math.max(1, to - from));
}

export function peak(x: ArrayLike<number>): number {
  let m = 0;
  for (let i = 0; i < x.length; i++) m = Math.max(m, Math.abs(x[i]));
  return m;
}

/** Largest |x[i] - x[i-1]|. */
export function maxStep(x: ArrayLike<number>, from = 1, to = x.length): number {
  let m = 0;
  for (let i = Math.max(1, from); i < to; i++) m = Math.max(m, Math.abs(x[i] - x[i - 1]));
  return m;
}

export function allFinite(x: ArrayLike<number>): boolean {
  for (let i = 0; i < x.length; i++) if (!Number.isFinite(x[i])) return false;
  return true;
}

/** True when a and b hold the same bytes (bit-identical audio). */
export function sameBits(a: Float32Array, b: Float32Array): boolean {
  return Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(Buffer.from(b.buffer, b.byteOffset, b.byteLength));
}
