// The engine's 24-bit output (dsp/assembly/pcm24.ts, Engine.renderPcm24): level against the float
// output, the noise floor with TPDF dither at 24 bits and without, full-scale clamping, and bytes
// that depend only on the seed and each frame's position (not on how the render is cut up).

import { describe, expect, it } from "vitest";
import { createNodeEngine } from "../../../../dsp/host/node";
import { defaultAudioState } from "../../../../dsp/host/schema/state";
import { FS, db, renderFrames, singleTone } from "./helpers";

const SCALE24 = 8388607;

/** Little-endian signed 24-bit samples (3 bytes each) as numbers. */
function int24(bytes: Uint8Array): Int32Array {
  const out = new Int32Array(bytes.length / 3);
  for (let i = 0; i < out.length; i++) {
    const v = bytes[3 * i] | (bytes[3 * i + 1] << 8) | (bytes[3 * i + 2] << 16);
    out[i] = (v << 8) >> 8;
  }
  return out;
}

/** Renders `frames` in calls of `block` and keeps both the float output and its PCM24. */
function render24(state = defaultAudioState(), frames = FS * 2, block = 4096, dither = true, seed = 7) {
  const engine = createNodeEngine(FS);
  engine.apply(state);
  engine.setDitherSeed(seed);
  engine.start({ delay: 0 });
  const floats = new Float32Array(frames * 2);
  const pcm = new Uint8Array(frames * 6);
  for (let pos = 0; pos < frames; pos += block) {
    const n = Math.min(block, frames - pos);
    const { left, right } = engine.render(n);
    for (let i = 0; i < n; i++) {
      floats[2 * (pos + i)] = left[i];
      floats[2 * (pos + i) + 1] = right[i];
    }
    pcm.set(engine.encodePcm24(n, dither), pos * 6);
  }
  return { floats, pcm, samples: int24(pcm) };
}

function errorStats(floats: Float32Array, samples: Int32Array) {
  let max = 0, sum = 0, sumSq = 0;
  for (let i = 0; i < samples.length; i++) {
    const err = samples[i] - floats[i] * SCALE24; // in 24-bit LSB
    max = Math.max(max, Math.abs(err));
    sum += err;
    sumSq += err * err;
  }
  return { max, mean: sum / samples.length, rms: Math.sqrt(sumSq / samples.length) };
}

describe("PCM24 with TPDF dither at 24 bits", () => {
  it("keeps the float output's level: within ±1.5 LSB of 24 bits, unbiased, 0.5 LSB rms (-144.5 dBFS)", () => {
    const { floats, samples } = render24(defaultAudioState(), FS * 3, 3000);
    let loud = 0;
    for (const x of floats) loud = Math.max(loud, Math.abs(x));
    expect(loud).toBeGreaterThan(0.05);
    const e = errorStats(floats, samples);
    expect(e.max).toBeLessThanOrEqual(1.5 + 1e-6);
    expect(Math.abs(e.mean)).toBeLessThan(0.01);
    // TPDF (1/6 LSB²) plus rounding (1/12 LSB²): 0.5 LSB rms, the noise floor of the file.
    expect(e.rms).toBeGreaterThan(0.47);
    expect(e.rms).toBeLessThan(0.53);
    expect(db(e.rms / SCALE24)).toBeCloseTo(-144.5, 0);
  });

  it("without dither rounds to the nearest step: ±0.5 LSB, 0.29 LSB rms (1/sqrt(12))", () => {
    const { floats, samples } = render24(singleTone(997), FS, 4096, false);
    const e = errorStats(floats, samples);
    expect(e.max).toBeLessThanOrEqual(0.5 + 1e-6);
    expect(e.rms).toBeGreaterThan(0.27);
    expect(e.rms).toBeLessThan(0.31);
  });

  it("is 48 dB quieter in its noise than the 16-bit path at the same level", () => {
    const state = singleTone(1000);
    const engine = createNodeEngine(FS);
    engine.apply(state);
    engine.setDitherSeed(3);
    engine.start({ delay: 0 });
    let sq16 = 0, sq24 = 0, n = 0;
    for (let b = 0; b < 12; b++) {
      const { left, right } = engine.render(4096);
      const ref = [left.slice(), right.slice()];
      const p16 = new Int16Array(engine.encodePcm16(4096).slice().buffer);
      const p24 = int24(engine.encodePcm24(4096, true).slice());
      for (let i = 0; i < 4096; i++) {
        for (let c = 0; c < 2; c++) {
          sq16 += (p16[2 * i + c] / 32767 - ref[c][i]) ** 2;
          sq24 += (p24[2 * i + c] / SCALE24 - ref[c][i]) ** 2;
          n++;
        }
      }
    }
    const floor16 = db(Math.sqrt(sq16 / n)), floor24 = db(Math.sqrt(sq24 / n));
    expect(floor16).toBeCloseTo(-96.3, 0);
    expect(floor24 - floor16).toBeCloseTo(-48.2, 0);
  });

  it("clamps full scale and dithers silence to -1, 0 or +1 LSB with the triangular spread", () => {
    const engine = createNodeEngine(FS);
    engine.setDitherSeed(1);
    const n = 4099; // a scalar tail after the vector loop
    const { left, right } = engine.render(n);
    left.fill(1.5);
    right.fill(-1.5);
    let s = int24(engine.encodePcm24(n).slice());
    for (let i = 0; i < n; i++) {
      expect(s[2 * i]).toBe(8388607);
      expect(s[2 * i + 1]).toBe(-8388608);
    }
    const counts = new Map<number, number>();
    for (let block = 0; block < 16; block++) {
      s = int24(engine.renderPcm24(4096).slice());
      for (const v of s) counts.set(v, (counts.get(v) ?? 0) + 1);
    }
    const total = 16 * 4096 * 2;
    expect([...counts.keys()].sort()).toEqual([-1, 0, 1]);
    expect((counts.get(0) ?? 0) / total).toBeCloseTo(0.75, 2);
    expect((counts.get(1) ?? 0) / total).toBeCloseTo(0.125, 2);
  });

  it("gives the same bytes whatever the render calls' lengths, and other bytes for another seed", () => {
    const a = render24(singleTone(528, "sawtooth"), 20000, 4096).pcm;
    const b = render24(singleTone(528, "sawtooth"), 20000, 1001).pcm;
    const c = render24(singleTone(528, "sawtooth"), 20000, 4096, true, 8).pcm;
    expect(Buffer.from(a).equals(Buffer.from(b))).toBe(true);
    expect(Buffer.from(a).equals(Buffer.from(c))).toBe(false);
    // The same floats as a plain render (the 24-bit path only reads the output buffers).
    const engine = createNodeEngine(FS);
    engine.apply(singleTone(528, "sawtooth"));
    engine.start({ delay: 0 });
    const ref = renderFrames(engine, 20000);
    const floats = render24(singleTone(528, "sawtooth"), 20000).floats;
    expect(floats[2 * 12345]).toBe(ref.left[12345]);
  });
});
