// Integrated loudness (LUFS) per ITU-R BS.1770-4, for the loudness-normalised export and its
// export report. K-weighting (a high shelf, then the RLB high-pass) per channel, mean square over
// 400 ms blocks every 100 ms (75 % overlap), l = -0.691 + 10·log10(Σ z_i) with weight 1 for left
// and right, an absolute gate at -70 LUFS and a relative gate 10 LU under the ungated level.
// Streaming: push() any number of frames at a time; memory is one number per channel per 100 ms
// (a 12-hour session keeps about 7 MB).
//
// The filters come from the analog prototypes the standard's 48 kHz coefficients were made from
// (the parameters published with pyloudnorm), bilinear-transformed for any sample rate; at 48 kHz
// they reproduce the standard's coefficients to 1e-8 (tests/unit/dsp/host/analysis/loudness.test.ts).

export interface Biquad {
  b: [number, number, number];
  a: [number, number, number];
}

const SHELF = { gainDb: 3.99984385397, q: 0.7071752369554193, fc: 1681.9744509555319 };
const HIGHPASS = { q: 0.5003270373253953, fc: 38.13547087613982 };

/** The two K-weighting stages at `sampleRate` (a[0] = 1). */
export function kWeighting(sampleRate: number): [Biquad, Biquad] {
  let k = Math.tan((Math.PI * SHELF.fc) / sampleRate);
  const vh = 10 ** (SHELF.gainDb / 20);
  const vb = vh ** 0.4996667741545416;
  let a0 = 1 + k / SHELF.q + k * k;
  const shelf: Biquad = {
    b: [(vh + (vb * k) / SHELF.q + k * k) / a0, (2 * (k * k - vh)) / a0, (vh - (vb * k) / SHELF.q + k * k) / a0],
    a: [1, (2 * (k * k - 1)) / a0, (1 - k / SHELF.q + k * k) / a0],
  };
  k = Math.tan((Math.PI * HIGHPASS.fc) / sampleRate);
  a0 = 1 + k / HIGHPASS.q + k * k;
  const highpass: Biquad = {
    b: [1, -2, 1],
    a: [1, (2 * (k * k - 1)) / a0, (1 - k / HIGHPASS.q + k * k) / a0],
  };
  return [shelf, highpass];
}

const ABSOLUTE_GATE_LUFS = -70;
const RELATIVE_GATE_LU = -10;
const loudnessOf = (meanSquareSum: number): number => -0.691 + 10 * Math.log10(meanSquareSum);

/** Direct form II transposed state of one biquad on one channel. */
class Section {
  private z1 = 0;
  private z2 = 0;
  constructor(private readonly f: Biquad) {}
  step(x: number): number {
    const { b, a } = this.f;
    const y = b[0] * x + this.z1;
    this.z1 = b[1] * x - a[1] * y + this.z2;
    this.z2 = b[2] * x - a[2] * y;
    return y;
  }
}

export class LoudnessMeter {
  private readonly filters: Section[][];
  private readonly segmentFrames: number;
  /** Sum of squared K-weighted samples of the segment being filled, per channel. */
  private readonly partial: number[];
  private filled = 0;
  /** Mean square of each finished 100 ms segment, per channel. */
  private readonly segments: number[][];

  constructor(readonly sampleRate: number, readonly channels = 2) {
    if (!(sampleRate > 0) || !Number.isInteger(channels) || channels < 1) throw new RangeError("Invalid meter format");
    const [shelf, highpass] = kWeighting(sampleRate);
    this.filters = Array.from({ length: channels }, () => [new Section(shelf), new Section(highpass)]);
    this.segmentFrames = Math.round(sampleRate / 10);
    this.partial = new Array(channels).fill(0);
    this.segments = Array.from({ length: channels }, () => []);
  }

  /** Adds frames: one array per channel, all the same length. */
  push(...planes: ArrayLike<number>[]): void {
    if (planes.length !== this.channels) throw new RangeError(`Expected ${this.channels} channels`);
    const n = planes[0].length;
    for (let i = 0; i < n; i++) {
      for (let c = 0; c < this.channels; c++) {
        const [s1, s2] = this.filters[c];
        const y = s2.step(s1.step(planes[c][i]));
        this.partial[c] += y * y;
      }
      if (++this.filled === this.segmentFrames) {
        for (let c = 0; c < this.channels; c++) {
          this.segments[c].push(this.partial[c] / this.segmentFrames);
          this.partial[c] = 0;
        }
        this.filled = 0;
      }
    }
  }

  /** Integrated loudness in LUFS of everything pushed so far (-Infinity for silence or under 400 ms). */
  integrated(): number {
    const blocks: number[][] = []; // per block: mean square per channel
    const count = this.segments[0].length - 3;
    for (let j = 0; j < count; j++) {
      blocks.push(this.segments.map((seg) => (seg[j] + seg[j + 1] + seg[j + 2] + seg[j + 3]) / 4));
    }
    const sum = (z: number[]) => z.reduce((s, v) => s + v, 0);
    const aboveAbsolute = blocks.filter((z) => loudnessOf(sum(z)) > ABSOLUTE_GATE_LUFS);
    if (aboveAbsolute.length === 0) return Number.NEGATIVE_INFINITY;
    const meanOf = (set: number[][]) => sum(Array.from({ length: this.channels }, (_, c) => set.reduce((s, z) => s + z[c], 0) / set.length));
    const relativeGate = loudnessOf(meanOf(aboveAbsolute)) + RELATIVE_GATE_LU;
    const gated = aboveAbsolute.filter((z) => loudnessOf(sum(z)) > relativeGate);
    return loudnessOf(meanOf(gated));
  }
}

// ---- True peak (ITU-R BS.1770-4 annex 2) ----
// 4x oversampling with the annex's 48-tap interpolator (table 1, four phases of 12 taps), then the
// largest absolute value. The annex's 12.04 dB attenuation before the filter only guards integer
// arithmetic against overflow; in floating point it changes nothing and is left out. Like
// libebur128, the reading is the larger of the oversampled peak and the sample peak (the
// interpolator's points fall between the samples, never on them). The engine's limiter uses the
// same table (dsp/assembly/lib/limiter.ts).

/** Annex 2, table 1: phase p's taps; phase p's output at n interpolates n - 5.875 + p/4. */
export const TRUE_PEAK_PHASES: readonly (readonly number[])[] = [
  [0.001708984375, 0.010986328125, -0.0196533203125, 0.033203125, -0.0594482421875, 0.1373291015625, 0.97216796875, -0.102294921875, 0.047607421875, -0.026611328125, 0.014892578125, -0.00830078125],
  [-0.0291748046875, 0.029296875, -0.0517578125, 0.089111328125, -0.166503906250, 0.465087890625, 0.77978515625, -0.2003173828125, 0.1015625, -0.0582275390625, 0.0330810546875, -0.0189208984375],
  [-0.0189208984375, 0.0330810546875, -0.0582275390625, 0.1015625, -0.2003173828125, 0.77978515625, 0.465087890625, -0.166503906250, 0.089111328125, -0.0517578125, 0.029296875, -0.0291748046875],
  [-0.00830078125, 0.014892578125, -0.026611328125, 0.047607421875, -0.102294921875, 0.97216796875, 0.1373291015625, -0.0594482421875, 0.033203125, -0.0196533203125, 0.010986328125, 0.001708984375],
];
const TP_TAPS = 12;

/** Streaming true-peak meter: push() any number of frames at a time; memory is 12 samples per
 *  channel whatever the length. */
export class TruePeakMeter {
  /** Per channel: the last TP_TAPS samples, newest at index (pos - 1) mod TP_TAPS. */
  private readonly history: Float64Array[];
  private pos = 0;
  private peak = 0;
  private samplePeakValue = 0;

  constructor(readonly channels = 2) {
    if (!Number.isInteger(channels) || channels < 1) throw new RangeError("Invalid meter format");
    this.history = Array.from({ length: channels }, () => new Float64Array(TP_TAPS));
  }

  /** Adds frames: one array per channel, all the same length. */
  push(...planes: ArrayLike<number>[]): void {
    if (planes.length !== this.channels) throw new RangeError(`Expected ${this.channels} channels`);
    const n = planes[0].length;
    let peak = this.peak;
    let sp = this.samplePeakValue;
    let pos = this.pos;
    for (let i = 0; i < n; i++) {
      for (let c = 0; c < this.channels; c++) {
        const h = this.history[c];
        const x = planes[c][i];
        h[pos] = x;
        sp = Math.max(sp, Math.abs(x));
        for (const taps of TRUE_PEAK_PHASES) {
          let y = 0;
          for (let k = 0; k < TP_TAPS; k++) y += taps[k] * h[(pos - k + TP_TAPS) % TP_TAPS];
          peak = Math.max(peak, Math.abs(y));
        }
      }
      pos = (pos + 1) % TP_TAPS;
    }
    this.peak = peak;
    this.samplePeakValue = sp;
    this.pos = pos;
  }

  /** The true peak so far, linear (the larger of the oversampled and the sample peak). */
  truePeak(): number {
    return Math.max(this.peak, this.samplePeakValue);
  }

  /** The true peak so far in dBTP (-Infinity for silence). */
  truePeakDb(): number {
    return 20 * Math.log10(this.truePeak());
  }

  /** The largest |sample| so far. */
  samplePeak(): number {
    return this.samplePeakValue;
  }
}
