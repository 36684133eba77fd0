// SBaGenX's noise families as they read and play: a noiseNN spectrum shapes the noise as its gains
// say (measured band by band) at the colours' loudness; noisepulse gates the bed at its pulse;
// noisebeat makes the noise itself beat between the ears; a spinNN path moves spinning noise as
// drawn (a square path holds each side); the published noiseNN example reads without a warning.

import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { spectrumGain } from "../../../../../dsp/host/model/noise-spectrum";
import type { Voice } from "../../../../../dsp/host/model/voices";
import { readSbgVoices, toSbg } from "../../../../../dsp/host/sbg/index";
import { FS, magnitude, rms } from "../../../dsp/assembly/helpers";
import { interauralLag, playVoices } from "../play-voices";

const EXAMPLE = fileURLToPath(new URL("../../../../../../shared/reference/sbagen/examples/SBaGenX__X_noiseNN-brownian-demo.sbg", import.meta.url));
/** +12 dB at the bottom falling to -12 dB at the top. */
const TILT = Array.from({ length: 32 }, (_, k) => 12 - (24 * k) / 31);

const play = (voices: Voice[], seconds: number, from = 0.5) => playVoices(voices, seconds, { from });

/** Mean power (dB) of x in [lo, hi] Hz, averaged over 8192-frame frames. */
function bandDb(x: Float32Array, lo: number, hi: number): number {
  const size = 8192;
  let sum = 0, count = 0;
  for (let at = 0; at + size <= x.length; at += size) {
    const mag = magnitude(x, size, at);
    for (let k = Math.ceil((lo * size) / FS); k <= Math.floor((hi * size) / FS); k++) {
      sum += mag[k] * mag[k];
      count++;
    }
  }
  return 10 * Math.log10(sum / count);
}

describe("noiseNN, noisepulse, noisebeat and spinNN in the engine", () => {
  it("a noiseNN spectrum shapes the noise as its gains say, at the colours' loudness", () => {
    const custom = play([{ kind: "noise", colour: "pink", amp: 40, spectrum: TILT }], 4).left;
    const white = play([{ kind: "noise", colour: "white", amp: 40 }], 4).left;
    const measured = bandDb(custom, 90, 110) - bandDb(custom, 4500, 5500);
    const expected = 20 * Math.log10(spectrumGain(TILT, 100) / spectrumGain(TILT, 5000));
    expect(measured).toBeCloseTo(expected, -0.3); // within 1.5 dB
    expect(Math.abs(20 * Math.log10(rms(custom) / rms(white)))).toBeLessThan(1);
  });

  it("noisepulse:4/40 gates a pink noise bed four times a second", () => {
    const out = play([{ kind: "noisepulse", pulse: 4, amp: 40 }], 1, 0).left;
    const w = Array.from({ length: 100 }, (_, k) => rms(out, k * 480, (k + 1) * 480));
    expect(Math.min(...w.slice(1)) / Math.max(...w)).toBeLessThan(0.02);
    let rises = 0;
    const half = Math.max(...w) / 2;
    for (let k = 1; k < w.length; k++) if (w[k - 1] < half && w[k] >= half) rises++;
    expect(rises).toBe(4);
  });

  it("noisebeat:6/40 makes the noise beat between the ears: their likeness swings through +1 and -1 six times a second", () => {
    const out = play([{ kind: "noisebeat", beat: 6, amp: 40 }], 1);
    const corr = Array.from({ length: 200 }, (_, k) => {
      let lr = 0, ll = 0, rr = 0;
      for (let i = k * 240; i < (k + 1) * 240; i++) {
        lr += out.left[i] * out.right[i]; ll += out.left[i] ** 2; rr += out.right[i] ** 2;
      }
      return lr / Math.sqrt(ll * rr);
    });
    expect(Math.max(...corr)).toBeGreaterThan(0.8);
    expect(Math.min(...corr)).toBeLessThan(-0.8);
    // Rises from below -0.5 to above +0.5 (with hysteresis: a 5 ms estimate wobbles near 0).
    let ups = 0, low = false;
    for (const c of corr) {
      if (c < -0.5) low = true;
      else if (c > 0.5 && low) [ups, low] = [ups + 1, false];
    }
    expect(ups).toBeGreaterThanOrEqual(5);
    expect(ups).toBeLessThanOrEqual(7);
  });

  it("a square spinNN path holds the noise on one side for half a turn, then on the other", () => {
    const path = [1, 1, -1, -1];
    const out = play([{ kind: "spin", colour: "white", width: 500, rate: 1, amp: 40, path }], 1, 0);
    const lag = (at: number) => interauralLag(out, at);
    // Linear between the levels: full swing (48 frames) from 0.05 to 0.2 s and -48 from 0.55 to 0.7.
    expect(lag(0.1 * FS)).toBeCloseTo(48, -1);
    expect(lag(0.6 * FS)).toBeCloseTo(-48, -1);
  });
});

describe("the noise families in .sbg files", () => {
  it("reads noiseNN (alone and as a source), spinNN, noisepulse and noisebeat with customNN, and writes them back", () => {
    const r = readSbgVoices(
      `-SE\nnoise00: ${TILT.map((v) => v.toFixed(3)).join(" ")}\nspin00: e=1 0 100 -100\ncustom00: e=1 0 1\n` +
        "ts: noise00/20 spin00:noise00:spin:300+1/35 custom00:noise00:noisepulse:2/20 noisebeat:-3/15\nNOW ts\nNOW+00:01 ts\n",
    );
    expect(r.ok && r.warnings).toEqual([]);
    if (!r.ok) return;
    const [a, b, c, d] = r.session.voices as Voice[];
    expect(a).toMatchObject({ kind: "noise", colour: "pink", amp: 20 });
    expect((a as { spectrum: number[] }).spectrum).toHaveLength(32);
    expect(b).toMatchObject({ kind: "spin", width: 300, rate: 1, amp: 35, path: [0, 1, -1] });
    expect(c).toMatchObject({ kind: "noisepulse", pulse: 2, amp: 20, envelope: [0, 1] });
    expect(d).toEqual({ kind: "noisebeat", beat: -3, amp: 15 });
    const again = readSbgVoices(toSbg(r.session).text);
    expect(again.ok && again.session.voices).toEqual(r.session.voices);
  });

  it.skipIf(!existsSync(EXAMPLE))("the published noiseNN example reads without a warning and plays its custom noise", () => {
    const r = readSbgVoices(readFileSync(EXAMPLE, "utf8"));
    expect(r.ok && r.warnings).toEqual([]);
    expect(r.ok && (r.session.voices![0] as { spectrum?: number[] }).spectrum).toHaveLength(32);
  });
});
