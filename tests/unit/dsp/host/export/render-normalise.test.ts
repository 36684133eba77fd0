// Loudness-normalised export: the WAV file WavRenderer writes with { normalize: true }
// reads -16 LUFS integrated within 0.1 LU (ITU-R BS.1770-4, dsp/host/analysis/loudness.ts) and stays at or
// under -1 dBTP, measured on the file's PCM16 samples; a sound the limiter has to hold needs more
// than one pass and still lands; the file equals a plain export rendered with the chosen gain (the
// measuring passes leave the engine exactly as a fresh one); the listener's levels reach the file.

import { describe, expect, it } from "vitest";
import { WavRenderer, type ExportOptions } from "../../../../../dsp/host/export/render";
import { DEFAULT_LEVELS, LIMITER_CEILING_DBTP, NORMALISED_LUFS } from "../../../../../dsp/host/schema/levels";
import { LoudnessMeter, TruePeakMeter } from "../../../../../dsp/host/analysis/loudness";
import { createNodeEngine } from "../../../../../dsp/host/node";
import { defaultAudioState, type AudioState } from "../../../../../dsp/host/schema/state";
import { parseWavHeader } from "../../../../../dsp/host/export/wav";
import { FS, peak, singleTone } from "../../assembly/helpers";

function exportFile(state: AudioState, seconds: number, options: ExportOptions = {}, setup?: (e: ReturnType<typeof createNodeEngine>) => void) {
  const engine = createNodeEngine(FS);
  setup?.(engine);
  const renderer = new WavRenderer(engine, state, seconds, options);
  const parts: Uint8Array[] = [];
  for (const chunk of renderer.chunks(1 << 20, 1)) parts.push(chunk.slice());
  const file = Buffer.concat(parts);
  const info = parseWavHeader(file);
  const left = new Float32Array(info.frames);
  const right = new Float32Array(info.frames);
  const view = new DataView(file.buffer, file.byteOffset + info.dataOffset, info.dataBytes);
  for (let i = 0; i < info.frames; i++) {
    left[i] = view.getInt16(i * 4, true) / 32768;
    right[i] = view.getInt16(i * 4 + 2, true) / 32768;
  }
  return { file, left, right, renderer };
}

function measure(x: { left: Float32Array; right: Float32Array }) {
  const lufs = new LoudnessMeter(FS, 2);
  lufs.push(x.left, x.right);
  const tp = new TruePeakMeter(2);
  tp.push(x.left, x.right);
  return { lufs: lufs.integrated(), dbtp: tp.truePeakDb() };
}

describe("loudness-normalised export", () => {
  it(`brings the default patch to ${NORMALISED_LUFS} LUFS within 0.1 LU in one pass, under ${LIMITER_CEILING_DBTP} dBTP`, () => {
    const out = exportFile(defaultAudioState(), 20, { levels: DEFAULT_LEVELS, normalize: true });
    const n = out.renderer.normalisation!;
    expect(n.passes).toBe(1);
    expect(n.measuredLufs).toBeLessThan(-20); // the patch is quieter than the target: raised
    const m = measure(out);
    expect(Math.abs(m.lufs - NORMALISED_LUFS)).toBeLessThan(0.1);
    expect(Math.abs(n.resultLufs - NORMALISED_LUFS)).toBeLessThan(0.01);
    expect(m.dbtp).toBeLessThanOrEqual(LIMITER_CEILING_DBTP);
  });

  it("lands a sound the limiter has to hold (more passes), still under the ceiling", () => {
    // A 25 Hz sine: K-weighting hears little of it (-38 LUFS at full volume), so +22 dB takes its
    // peaks into the limiter, which costs a little loudness that a second pass puts back.
    const s = singleTone(25);
    s.channels[0].volume = 1;
    const out = exportFile(s, 10, { levels: DEFAULT_LEVELS, normalize: true });
    const n = out.renderer.normalisation!;
    expect(n.passes).toBeGreaterThan(1);
    expect(out.renderer.normalisation!.gainDb).toBeGreaterThan(20);
    const m = measure(out);
    expect(Math.abs(m.lufs - NORMALISED_LUFS)).toBeLessThan(0.1);
    expect(m.dbtp).toBeLessThanOrEqual(LIMITER_CEILING_DBTP);
  });

  it("writes the same bytes as a fresh engine rendering with the chosen gain", () => {
    const s = singleTone(432, "triangle");
    const normalised = exportFile(s, 6, { levels: DEFAULT_LEVELS, normalize: true });
    const gain = 10 ** (normalised.renderer.normalisation!.gainDb / 20);
    const plain = exportFile(s, 6, { levels: DEFAULT_LEVELS }, (e) => {
      // WavRenderer sets the output gain to 1 before it starts: set it again after construction.
      const setOutputGain = e.setOutputGain.bind(e);
      e.setOutputGain = () => setOutputGain(gain);
    });
    expect(normalised.file.equals(plain.file)).toBe(true);
  });

  it("applies the listener's levels: the 2 s fade-in is in the file", () => {
    const out = exportFile(singleTone(1000), 4, { levels: DEFAULT_LEVELS });
    const full = peak(out.left.subarray(3 * FS, 3.5 * FS));
    expect(peak(out.left.subarray(FS - 48, FS + 48)) / full).toBeCloseTo(0.5, 2);
    const neutral = exportFile(singleTone(1000), 4);
    expect(peak(neutral.left.subarray(480, 960)) / full).toBeGreaterThan(0.99);
  });
});
