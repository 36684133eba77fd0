// The master stage (master gain, compressor, clamp) keeps a steady tone clean: every component
// that is not a harmonic of the tone stays at least 90 dB below it, for tones from 20 Hz to
// 20 kHz and every waveform, measured on the rendered output with a 65536-point FFT.

import FFT from "fft.js";
import { describe, expect, it } from "vitest";
import { EFFECTS } from "../../../../dsp/host/model/catalogue";
import { defaultEffect, type Waveform } from "../../../../dsp/host/schema/state";
import { FS, db, engineWith, renderFrames, singleTone } from "./helpers";

const N = 65536;
const BIN = FS / N;

// 7-term Blackman-Harris: side lobes below -180 dB, so the window itself adds nothing near the
// -90 dB bar (the 4-term one's -92 dB side lobes would), main lobe +-7 bins.
const BH7 = [0.27105140069342, 0.43329793923448, 0.21812299954311, 0.06592544638803, 0.01081174209837, 0.00077658482522, 0.00001388721735];
const WINDOW = Float64Array.from({ length: N }, (_, i) => BH7.reduce((w, a, k) => w + (k % 2 ? -a : a) * Math.cos((2 * Math.PI * k * i) / N), 0));

function spectrum(x: Float32Array): Float64Array {
  const fft = new FFT(N);
  const input = Array.from(x, (v, i) => v * WINDOW[i]);
  const out = fft.createComplexArray() as number[];
  fft.realTransform(out, input);
  return Float64Array.from({ length: N / 2 + 1 }, (_, k) => Math.hypot(out[2 * k], out[2 * k + 1]));
}

/** The strongest component more than 9 bins (6.6 Hz) away from every harmonic of `freq` and
 *  above 15 Hz, in dB relative to the strongest bin (the tone), and where it is. */
export function worstNonHarmonic(x: Float32Array, freq: number): { db: number; hz: number } {
  const mag = spectrum(x);
  const top = Math.max(...mag);
  let worst = 0;
  let hz = 0;
  for (let k = Math.ceil(15 / BIN); k < mag.length; k++) {
    const f = k * BIN;
    const h = Math.round(f / freq);
    if (h >= 1 && Math.abs(f - h * freq) < 9 * BIN) continue;
    if (mag[k] > worst) {
      worst = mag[k];
      hz = f;
    }
  }
  return { db: db(worst / top), hz };
}

/** One channel at `freq` through the default master stage (compressor on); the last N samples
 *  after one second, when the compressor has settled. */
function toneThroughMaster(freq: number, w: Waveform, patch: (s: ReturnType<typeof singleTone>) => void = () => {}) {
  const s = singleTone(freq, w);
  patch(s);
  const e = engineWith(s);
  e.start({ delay: 0 });
  const { left, right } = renderFrames(e, FS + N);
  return { left: left.subarray(FS), right: right.subarray(FS) };
}

// Low tones that do not divide the 1.5 kHz control rate, a 1-15 kHz sweep, the top end.
const FREQS = [21.7, 37, 97, 133, 211, 310, 440, 1000, 3000, 5000, 7500, 10000, 12345, 15000, 19000];
const WAVES: Waveform[] = ["sine", "square", "sawtooth", "triangle"];

describe("master stage keeps tones clean", () => {
  it.each(WAVES)("%s: non-harmonic components at least 90 dB down, 20 Hz to 20 kHz", (w) => {
    const found = FREQS.map((f) => ({ f, ...worstNonHarmonic(toneThroughMaster(f, w).left, f) }));
    const bad = found.filter((r) => r.db > -90);
    expect(bad, JSON.stringify(found.map((r) => `${r.f} Hz: ${r.db.toFixed(1)} dB at ${r.hz.toFixed(0)} Hz`))).toEqual([]);
  });

  it("a 5 kHz sawtooth has nothing above -110 dB between its harmonics (the old detector left 4.5 kHz at -82 dB)", () => {
    const { db: worst, hz } = worstNonHarmonic(toneThroughMaster(5000, "sawtooth").left, 5000);
    expect(worst, `${worst.toFixed(1)} dB at ${hz.toFixed(0)} Hz`).toBeLessThan(-110);
  });

  it("the stereo path (an effect on) is as clean as the mono one", () => {
    const pan = EFFECTS.find((d) => d.id === "stereoPan")!;
    const { left, right } = toneThroughMaster(5000, "sawtooth", (s) => {
      s.effects.stereoPan = { ...defaultEffect(pan), enabled: true };
    });
    for (const side of [left, right]) expect(worstNonHarmonic(side, 5000).db).toBeLessThan(-110);
  });
});
