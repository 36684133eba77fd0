// The Quality Test's signal path in Node: the WAV render to planar floats, and the G.711 mu-law
// fallback codec measured as a codec should be: its quantiser against the G.711 tables, its
// signal-to-noise ratio, the 4 kHz band limit and the time alignment with the render.

import { describe, expect, it } from "vitest";
import { wavHeader } from "../../../../dsp/host/export/wav";
import { G711_RATE, g711RoundTrip, lowPassTaps, muLawDecode, muLawEncode } from "../../../../web/quality/g711";
import { wavToPlanar, type PlanarAudio } from "../../../../web/quality/planar";

const RATE = 48000;

function tone(hz: number, seconds = 1, amp = 0.5): PlanarAudio {
  const n = RATE * seconds;
  const left = new Float32Array(n);
  for (let i = 0; i < n; i++) left[i] = amp * Math.sin((2 * Math.PI * hz * i) / RATE);
  return { sampleRate: RATE, left, right: left.slice() };
}

/** Amplitude of `hz` in `x` (a single-bin DFT over the middle of the signal). */
function amplitude(x: Float32Array, rate: number, hz: number): number {
  const from = Math.floor(x.length / 4);
  const to = Math.floor((3 * x.length) / 4);
  let re = 0;
  let im = 0;
  for (let i = from; i < to; i++) {
    re += x[i] * Math.cos((2 * Math.PI * hz * i) / rate);
    im += x[i] * Math.sin((2 * Math.PI * hz * i) / rate);
  }
  return (2 * Math.hypot(re, im)) / (to - from);
}

const db = (ratio: number) => 20 * Math.log10(ratio);

describe("wavToPlanar", () => {
  it("reads the engine's 16-bit stereo WAV into floats", () => {
    const frames = 3;
    const file = new Uint8Array(44 + frames * 4);
    file.set(wavHeader(frames * 4), 0);
    const pcm = new DataView(file.buffer, 44);
    [[16384, -16384], [32767, -32768], [0, 1]].forEach(([l, r], i) => {
      pcm.setInt16(i * 4, l, true);
      pcm.setInt16(i * 4 + 2, r, true);
    });
    const a = wavToPlanar(file);
    expect(a.sampleRate).toBe(48000);
    expect(Array.from(a.left)).toEqual([0.5, 32767 / 32768, 0]);
    expect(Array.from(a.right)).toEqual([-0.5, -1, 1 / 32768]);
  });
});

describe("G.711 mu-law", () => {
  it("matches the G.711 table at its reference points", () => {
    expect(muLawEncode(0)).toBe(0xff);
    expect(muLawEncode(-1)).toBe(0x7f);
    expect(muLawEncode(32767)).toBe(0x80);
    expect(muLawEncode(-32768)).toBe(0x00);
    expect(muLawDecode(0xff)).toBe(0);
    expect(muLawDecode(0x80)).toBe(32124);
    expect(muLawDecode(0x00)).toBe(-32124);
    // Every code decodes to a value that encodes back to the same code.
    for (let code = 0; code < 256; code++) {
      if (code === 0x7f) continue; // negative zero: encodes as positive zero
      expect(muLawEncode(muLawDecode(code))).toBe(code);
    }
  });

  it("keeps about 38 dB of signal to noise on a full-scale tone (8-bit logarithmic)", () => {
    let signal = 0;
    let noise = 0;
    for (let i = 0; i < 8000; i++) {
      const x = 30000 * Math.sin((2 * Math.PI * 1000 * i) / 8000 + 0.3);
      const y = muLawDecode(muLawEncode(x));
      signal += x * x;
      noise += (x - y) ** 2;
    }
    const snr = 10 * Math.log10(signal / noise);
    expect(snr).toBeGreaterThan(35);
    expect(snr).toBeLessThan(42);
  });

  it("the decimation filter is flat in the telephone band and stops 4 kHz and up", () => {
    const taps = lowPassTaps(481, 3700, RATE);
    const response = (hz: number) => {
      let re = 0;
      let im = 0;
      taps.forEach((t, i) => {
        re += t * Math.cos((2 * Math.PI * hz * i) / RATE);
        im -= t * Math.sin((2 * Math.PI * hz * i) / RATE);
      });
      return db(Math.hypot(re, im));
    };
    for (const hz of [100, 1000, 3000, 3400]) expect(Math.abs(response(hz))).toBeLessThan(0.1);
    for (const hz of [4000, 5000, 8000, 12000, 20000]) expect(response(hz)).toBeLessThan(-70);
  });

  it("a round trip keeps a 1 kHz tone at 8 kHz and removes a 6 kHz one", () => {
    const low = g711RoundTrip(tone(1000));
    expect(low.sampleRate).toBe(G711_RATE);
    expect(low.left.length).toBe(G711_RATE);
    expect(Math.abs(db(amplitude(low.left, G711_RATE, 1000) / 0.5))).toBeLessThan(0.2);
    const high = g711RoundTrip(tone(6000));
    // 6 kHz would fold to 2 kHz at 8 kHz: nothing of it may come through.
    expect(db(amplitude(high.left, G711_RATE, 2000) / 0.5)).toBeLessThan(-40);
  });

  it("stays aligned in time with the 48 kHz render", () => {
    const n = RATE / 2;
    const click: PlanarAudio = { sampleRate: RATE, left: new Float32Array(n), right: new Float32Array(n) };
    for (let i = 12000; i < 12000 + 480; i++) click.left[i] = click.right[i] = 0.5 * Math.sin((2 * Math.PI * 500 * (i - 12000)) / RATE);
    const out = g711RoundTrip(click);
    let peak = 0;
    let at = 0;
    out.left.forEach((v, i) => {
      if (Math.abs(v) > peak) [peak, at] = [Math.abs(v), i];
    });
    // The 500 Hz burst (1 ms per cycle) peaks within its 10 ms at 8 kHz: samples 2000-2080.
    expect(at).toBeGreaterThanOrEqual(2000);
    expect(at).toBeLessThan(2080);
  });
});
