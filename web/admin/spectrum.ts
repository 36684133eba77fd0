// The developer panel's "verify audio" measurement: where a rendered tone's spectrum peaks. A
// Hann-windowed radix-2 FFT (Cooley-Tukey, in place) of the largest power-of-two slice, the
// loudest bin, refined by a parabola through the log magnitudes of it and its neighbours (the
// usual quadratic interpolation of a windowed peak; Smith, "Spectral Audio Signal Processing",
// section "Quadratic Interpolation of Spectral Peaks").

export interface SpectrumPeak {
  /** Frequency of the peak, interpolated between bins (Hz). */
  hz: number;
  /** Width of one FFT bin (Hz). */
  binHz: number;
  /** The peak's level relative to a full-scale sine (dBFS, Hann-window gain corrected,
   *  interpolated: within about 0.3 dB wherever the tone falls between bins). */
  levelDb: number;
  /** FFT length used. */
  size: number;
}

/** In-place complex FFT of length re.length (a power of two). */
function fft(re: Float64Array, im: Float64Array): void {
  const n = re.length;
  for (let i = 1, j = 0; i < n; i++) {
    let bit = n >> 1;
    for (; j & bit; bit >>= 1) j ^= bit;
    j ^= bit;
    if (i < j) {
      [re[i], re[j]] = [re[j], re[i]];
      [im[i], im[j]] = [im[j], im[i]];
    }
  }
  for (let len = 2; len <= n; len <<= 1) {
    const ang = (-2 * Math.PI) / len;
    const wr = Math.cos(ang);
    const wi = Math.sin(ang);
    for (let i = 0; i < n; i += len) {
      let cr = 1;
      let ci = 0;
      for (let k = 0; k < len / 2; k++) {
        const a = i + k;
        const b = a + len / 2;
        const tr = re[b] * cr - im[b] * ci;
        const ti = re[b] * ci + im[b] * cr;
        re[b] = re[a] - tr;
        im[b] = im[a] - ti;
        re[a] += tr;
        im[a] += ti;
        const nr = cr * wr - ci * wi;
        ci = cr * wi + ci * wr;
        cr = nr;
      }
    }
  }
}

/** The spectral peak of `samples` (at least 256 of them), DC excluded. */
export function spectrumPeak(samples: ArrayLike<number>, sampleRate: number): SpectrumPeak {
  if (samples.length < 256) throw new Error("Too few samples to measure");
  const size = 2 ** Math.floor(Math.log2(samples.length));
  const offset = Math.floor((samples.length - size) / 2);
  const re = new Float64Array(size);
  const im = new Float64Array(size);
  for (let i = 0; i < size; i++) re[i] = samples[offset + i] * (0.5 - 0.5 * Math.cos((2 * Math.PI * i) / size));
  fft(re, im);
  const mag = (k: number) => Math.hypot(re[k], im[k]);
  let k = 1;
  for (let i = 2; i < size / 2; i++) if (mag(i) > mag(k)) k = i;
  const a = Math.log(mag(k - 1) + 1e-30);
  const b = Math.log(mag(k) + 1e-30);
  const c = Math.log(k + 1 < size / 2 ? mag(k + 1) + 1e-30 : 1e-30);
  const denom = a - 2 * b + c;
  const p = denom !== 0 && k + 1 < size / 2 ? Math.max(-0.5, Math.min(0.5, (0.5 * (a - c)) / denom)) : 0;
  const binHz = sampleRate / size;
  // The parabola's top (log magnitude) is the level between bins; a full-scale sine gives a
  // Hann-windowed peak of size/4.
  const top = Math.exp(b - 0.25 * (a - c) * p);
  const levelDb = 20 * Math.log10(top / (size / 4) + 1e-30);
  return { hz: (k + p) * binHz, binHz, levelDb, size };
}

export interface ToneCheck {
  pass: boolean;
  measuredHz: number;
  expectedHz: number;
  /** Allowed error: one bin. */
  toleranceHz: number;
  levelDb: number;
}

/** Pass when the peak is within one bin of `expectedHz` and the tone is clearly there (> -60 dBFS). */
export function checkTone(samples: ArrayLike<number>, sampleRate: number, expectedHz: number): ToneCheck {
  const peak = spectrumPeak(samples, sampleRate);
  const pass = Math.abs(peak.hz - expectedHz) <= peak.binHz && peak.levelDb > -60;
  return { pass, measuredHz: peak.hz, expectedHz, toleranceHz: peak.binHz, levelDb: peak.levelDb };
}
