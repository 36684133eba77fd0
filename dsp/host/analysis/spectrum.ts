// Spectrum analysis for measuring tones in rendered audio (the export report): a radix-2 FFT, the
// 4-term Blackman-Harris window and a peak estimator. Pure TypeScript, no dependencies, so the same
// code runs in the export worker, the CLI and tests.
//
// Why this estimator: a steady tone's frequency must come out within about 0.1 Hz. The 4-term
// Blackman-Harris window (Harris 1978, "On the use of windows...", -92 dB side lobes) keeps a quiet
// neighbour from leaning on a loud tone's peak; its main lobe is close to a Gaussian, whose log
// magnitude is exactly a parabola, so a parabola through the three largest log-magnitude bins
// (Gaussian interpolation) finds the centre between bins. Zero-padding the window 2x halves the bin
// spacing, which shrinks the parabola's remaining bias (the lobe is not exactly Gaussian) to under
// 0.001 bin: with 65536 samples at 48 kHz (1.37 s, bins 0.73 Hz, 0.37 Hz padded) the error on a clean
// tone is under 0.001 Hz (tests/unit/dsp/host/analysis/spectrum.test.ts), far inside the 0.1 Hz the report allows.

/** Coefficients of the 4-term Blackman-Harris window (-92 dB side lobes). */
const BH = [0.35875, 0.48829, 0.14128, 0.01168] as const;
/** Sum of the window divided by its length: a sine of amplitude A gives a peak of A·N·BH_GAIN/2. */
export const BH_GAIN = BH[0];
/** Half-width of the window's main lobe, in bins of the unpadded length. */
export const BH_HALF_LOBE_BINS = 4;

/** The 4-term Blackman-Harris window of length n (periodic form, as used for spectral analysis). */
export function blackmanHarris(n: number): Float64Array {
  const w = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const x = (2 * Math.PI * i) / n;
    w[i] = BH[0] - BH[1] * Math.cos(x) + BH[2] * Math.cos(2 * x) - BH[3] * Math.cos(3 * x);
  }
  return w;
}

export { fft } from "../model/fft";
import { fft, isPow2 } from "../model/fft";

export interface Spectrum {
  /** Magnitudes of bins 0..size/2, scaled so that a sine of amplitude A peaks at A. */
  mag: Float64Array;
  /** Hz per bin (sampleRate / size). */
  binHz: number;
}

/** The Blackman-Harris windowed spectrum of x, zero-padded to `pad` times its length (x.length a
 *  power of two). */
export function spectrum(x: ArrayLike<number>, sampleRate: number, pad = 2): Spectrum {
  const n = x.length;
  const size = n * pad;
  if (!isPow2(n) || !isPow2(size)) throw new RangeError(`Analysis length must be a power of two, not ${n}`);
  const w = blackmanHarris(n);
  const re = new Float64Array(size);
  const im = new Float64Array(size);
  for (let i = 0; i < n; i++) re[i] = x[i] * w[i];
  fft(re, im);
  const mag = new Float64Array(size / 2 + 1);
  const scale = 2 / (n * BH_GAIN);
  for (let k = 0; k <= size / 2; k++) mag[k] = Math.hypot(re[k], im[k]) * scale;
  return { mag, binHz: sampleRate / size };
}

export interface Peak {
  /** Interpolated frequency in Hz. */
  frequency: number;
  /** Interpolated amplitude (a sine of amplitude A gives A). */
  amplitude: number;
  /** False when the largest bin lies on the edge of the band (no peak inside it). */
  inside: boolean;
}

/** The strongest peak of `s` between lo and hi Hz, refined by a parabola through the log
 *  magnitudes of the largest bin and its neighbours. Null when the band holds no bin. */
export function peakIn(s: Spectrum, lo: number, hi: number): Peak | null {
  const k0 = Math.max(1, Math.ceil(lo / s.binHz));
  const k1 = Math.min(s.mag.length - 2, Math.floor(hi / s.binHz));
  if (k1 < k0) return null;
  let k = k0;
  for (let i = k0 + 1; i <= k1; i++) if (s.mag[i] > s.mag[k]) k = i;
  const floor = 1e-30;
  const a = Math.log(Math.max(s.mag[k - 1], floor));
  const b = Math.log(Math.max(s.mag[k], floor));
  const c = Math.log(Math.max(s.mag[k + 1], floor));
  const den = a - 2 * b + c;
  const p = den < 0 ? Math.min(0.5, Math.max(-0.5, (0.5 * (a - c)) / den)) : 0;
  const inside = s.mag[k] > s.mag[k - 1] && s.mag[k] >= s.mag[k + 1];
  return { frequency: (k + p) * s.binHz, amplitude: Math.exp(b - 0.25 * (a - c) * p), inside };
}
