// SBaGenX's noiseNN as sound: the noise the engine plays for a custom spectrum. The 32 gains (dB,
// dsp/host/model/voices.ts SPECTRUM_BANDS) sit at log-spaced frequencies from 20 Hz to 20 kHz and
// are joined linearly in log frequency (flat beyond the ends). The noise is made once per
// spectrum by an inverse FFT of that magnitude with random phases (a fixed seed, so every render
// is the same), as two independent tables of TABLE_FRAMES that the engine reads side by side with
// the second drifting by a few frames each turn (dsp/assembly/voices.ts), so the bed does not
// repeat for hours; each table has white noise's RMS (1/sqrt 3, as the engine's generators), so a
// custom noise at an amp is as loud as the colours at that amp. Plain TypeScript (no zod): the
// worklet compiles it. Making a pair takes some tens of milliseconds, once per spectrum (cached).

import { fft } from "./fft";
import { SPECTRUM_BANDS } from "./voices";

export const TABLE_FRAMES = 1 << 17;
const LOW = 20, HIGH = 20000;

/** The gain (linear) of `spectrum` at f Hz. */
export function spectrumGain(spectrum: readonly number[], f: number): number {
  const x = (Math.log(Math.max(f, 1e-9) / LOW) / Math.log(HIGH / LOW)) * (SPECTRUM_BANDS - 1);
  const k = Math.min(SPECTRUM_BANDS - 1, Math.max(0, x));
  const j = Math.min(SPECTRUM_BANDS - 2, Math.floor(k));
  const db = spectrum[j] + (spectrum[j + 1] - spectrum[j]) * (k - j);
  return 10 ** (db / 20);
}

const cache = new Map<string, [Float32Array, Float32Array]>();

/** The two noise tables for a spectrum at `rate` Hz (cached: the same arrays for the same input). */
export function spectrumNoise(spectrum: readonly number[], rate: number): [Float32Array, Float32Array] {
  const key = `${rate}|${spectrum.join(",")}`;
  let pair = cache.get(key);
  if (!pair) {
    pair = [table(spectrum, rate, 0x9e3779b9), table(spectrum, rate, 0x85ebca6b)];
    if (cache.size >= 8) cache.delete(cache.keys().next().value!);
    cache.set(key, pair);
  }
  return pair;
}

function table(spectrum: readonly number[], rate: number, seed: number): Float32Array {
  const n = TABLE_FRAMES;
  const re = new Float64Array(n), im = new Float64Array(n);
  let s = seed >>> 0;
  const random = () => {
    s ^= s << 13; s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5; s >>>= 0;
    return s / 4294967296;
  };
  for (let k = 1; k < n / 2; k++) {
    const g = spectrumGain(spectrum, (k * rate) / n);
    const ph = 2 * Math.PI * random();
    re[k] = g * Math.cos(ph);
    im[k] = g * Math.sin(ph);
    // Conjugate symmetry: a real signal.
    re[n - k] = re[k];
    im[n - k] = -im[k];
  }
  // The inverse transform by the forward one: conj(FFT(conj(X))).
  for (let k = 0; k < n; k++) im[k] = -im[k];
  fft(re, im);
  let sum = 0;
  for (let i = 0; i < n; i++) sum += re[i] * re[i];
  const scale = sum > 0 ? 1 / Math.sqrt(3) / Math.sqrt(sum / n) : 0;
  const out = new Float32Array(n);
  for (let i = 0; i < n; i++) out[i] = re[i] * scale;
  return out;
}
