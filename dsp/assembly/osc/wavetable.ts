// Band-limited mipmapped wavetables for sine, square, sawtooth and triangle.
//
// Why wavetables: a 2-point PolyBLEP leaves aliasing near -28 dB for a 5 kHz sawtooth, while
// Chromium's OscillatorNode (itself mipmapped tables) stays below -93 dB. A table per
// "harmonic budget" holds only harmonics that stay under 0.45 * sampleRate for every pitch that
// uses it, so no partial ever folds back, and a lookup is cheaper than any BLEP.
//
// Each table is TABLE_SIZE samples plus one guard sample (for interpolation without a wrap).
// Level L holds the first LEVEL_HARMONICS[L] harmonics of the ideal Fourier series.
// Harmonic counts grow by about sqrt(2) per level, so a level switch removes at most ~30% of
// the top partials (all of which sit between 15 and 21.6 kHz).

export const TABLE_BITS: i32 = 12;
export const TABLE_SIZE: i32 = 1 << TABLE_BITS; // 4096
export const TABLE_STRIDE: i32 = TABLE_SIZE + 1;
/** Highest partial allowed, as a fraction of the sample rate (21.6 kHz at 48 kHz). */
export const MAX_PARTIAL: f64 = 0.45;

export const WAVE_SINE: i32 = 0;
export const WAVE_SQUARE: i32 = 1;
export const WAVE_SAWTOOTH: i32 = 2;
export const WAVE_TRIANGLE: i32 = 3;

// 1024 harmonics reach 20 kHz for fundamentals down to 19.5 Hz; below that the top octave is
// dropped, which keeps the linear interpolation on a 4096 table accurate (>= 4 points per cycle).
const LEVEL_HARMONICS: StaticArray<i32> = [
  1, 2, 3, 4, 6, 8, 11, 16, 23, 32, 45, 64, 91, 128, 181, 256, 362, 512, 724, 1024,
];
export const LEVELS: i32 = 20;

// tables[w]: LEVELS * TABLE_STRIDE floats (sine uses one level only).
let tables = new StaticArray<usize>(4);

/** Fourier amplitude of harmonic k (1-based) of waveform w; phase convention: sine series. */
// @ts-ignore: decorator
@inline
function amplitude(w: i32, k: i32): f64 {
  const kf = <f64>k;
  if (w == WAVE_SAWTOOTH) {
    // Rising ramp from -1 to 1: (2/pi) * sum (-1)^(k+1) sin(k x) / k
    return ((k & 1) ? 1.0 : -1.0) * 0.6366197723675814 / kf;
  }
  if (w == WAVE_SQUARE) {
    return (k & 1) ? 1.2732395447351628 / kf : 0.0; // 4/pi / k, odd k
  }
  if (w == WAVE_TRIANGLE) {
    if ((k & 1) == 0) return 0.0;
    const s = (((k - 1) >> 1) & 1) ? -1.0 : 1.0;
    return s * 0.8105694691387022 / (kf * kf); // 8/pi^2 / k^2, alternating
  }
  return k == 1 ? 1.0 : 0.0;
}

/** Builds all tables once. For each table position the harmonics are summed with the
 *  Chebyshev recurrence sin((k+1)x) = 2cos(x)sin(kx) - sin((k-1)x) in f64, and the running
 *  sum is written to every level whose harmonic budget has been reached: one pass per waveform. */
export function buildTables(): void {
  for (let w = 0; w < 4; w++) {
    const levels = w == WAVE_SINE ? 1 : LEVELS;
    const base = changetype<usize>(new StaticArray<f32>(levels * TABLE_STRIDE));
    tables[w] = base;
    const maxK = w == WAVE_SINE ? 1 : LEVEL_HARMONICS[LEVELS - 1];
    for (let n = 0; n < TABLE_SIZE; n++) {
      const x = 2.0 * Math.PI * <f64>n / <f64>TABLE_SIZE;
      const c2 = 2.0 * Math.cos(x);
      let sPrev = 0.0;        // sin(0 x)
      let sCur = Math.sin(x); // sin(1 x)
      let sum = 0.0;
      let level = 0;
      for (let k = 1; k <= maxK; k++) {
        sum += amplitude(w, k) * sCur;
        // LEVEL_HARMONICS[0] == 1, so the sine's single level is written at k == 1 too.
        while (level < levels && LEVEL_HARMONICS[level] == k) {
          store<f32>(base + ((<usize>(level * TABLE_STRIDE + n)) << 2), <f32>sum);
          level++;
        }
        const sNext = c2 * sCur - sPrev;
        sPrev = sCur;
        sCur = sNext;
      }
    }
    // Guard sample: copy of sample 0 so (i, i + 1) never wraps.
    for (let l = 0; l < levels; l++) {
      const row = base + (<usize>(l * TABLE_STRIDE) << 2);
      store<f32>(row + (<usize>TABLE_SIZE << 2), load<f32>(row));
    }
  }
}

/** Pointer to the table to use for waveform w at a phase increment of inc cycles per sample. */
export function tableFor(w: i32, inc: f64): usize {
  if (w == WAVE_SINE) return tables[WAVE_SINE];
  let level = LEVELS - 1;
  if (inc > 0.0) {
    const budget = MAX_PARTIAL / inc; // highest harmonic that stays below 0.45 fs
    while (level > 0 && <f64>LEVEL_HARMONICS[level] > budget) level--;
  }
  return tables[w] + (<usize>(level * TABLE_STRIDE) << 2);
}
