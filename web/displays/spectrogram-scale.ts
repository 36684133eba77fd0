// The spectrogram's scales, as pure functions: a log-frequency axis (20 Hz at the bottom to the
// Nyquist frequency at the top, labelled 50 Hz ... 20k) and a dB-to-colour ramp. The display
// precomputes both once per canvas size, so a redraw only looks values up.

/** Lowest frequency shown (bottom edge of the spectrogram). */
export const MIN_DISPLAY_HZ = 20;

/** Axis labels in Hz. */
export const AXIS_TICKS_HZ = [50, 100, 200, 500, 1000, 2000, 5000, 10000, 20000] as const;

/** "50", "500", "1k", "20k". */
export function formatHz(hz: number): string {
  return hz >= 1000 ? `${hz / 1000}k` : String(hz);
}

/** Height of `hz` on the log axis: 0 at MIN_DISPLAY_HZ (bottom), 1 at `topHz`. */
export function logFrequencyFraction(hz: number, topHz: number): number {
  return Math.log(hz / MIN_DISPLAY_HZ) / Math.log(topHz / MIN_DISPLAY_HZ);
}

/** The fractional FFT bin each canvas row shows (row 0 is the top), for `binCount` bins
 *  spanning 0 Hz to `nyquist`. */
export function rowBins(rows: number, binCount: number, nyquist: number): Float32Array {
  const out = new Float32Array(rows);
  const binHz = nyquist / binCount;
  for (let y = 0; y < rows; y++) {
    const fraction = rows > 1 ? 1 - y / (rows - 1) : 0;
    const hz = MIN_DISPLAY_HZ * Math.pow(nyquist / MIN_DISPLAY_HZ, fraction);
    out[y] = Math.min(binCount - 1, hz / binHz);
  }
  return out;
}

/** The level (dB) a row shows: linear interpolation between the two bins around `bin`. */
export function levelAt(bins: Float32Array, bin: number): number {
  const k = Math.floor(bin);
  const next = Math.min(bins.length - 1, k + 1);
  const t = bin - k;
  return bins[k] * (1 - t) + bins[next] * t;
}

/** 256 RGB entries, dark blue (quiet) -> cyan -> yellow (loud), packed as 0xRRGGBB. */
export function colourRamp(): Uint32Array {
  const out = new Uint32Array(256);
  for (let i = 0; i < 256; i++) {
    const t = i / 255;
    let r: number, g: number, b: number;
    if (t < 0.5) {
      const u = t * 2;
      [r, g, b] = [11, 16 + 200 * u, 32 + 216 * u];
    } else {
      const u = (t - 0.5) * 2;
      [r, g, b] = [11 + 242 * u, 216 + 8 * u, 248 - 177 * u];
    }
    out[i] = (Math.round(r) << 16) | (Math.round(g) << 8) | Math.round(b);
  }
  return out;
}

/** Index into colourRamp() for a level in dB within [minDb, maxDb] (clamped; -Infinity is 0). */
export function rampIndex(db: number, minDb: number, maxDb: number): number {
  const t = (db - minDb) / (maxDb - minDb);
  if (!(t > 0)) return 0;
  return t >= 1 ? 255 : Math.round(t * 255);
}
