// The sound engine's promises, measured on rendered audio through dsp/host.

import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { createNodeEngine } from "../../../../dsp/host/node";
import { WAVEFORMS, defaultAudioState, type Waveform } from "../../../../dsp/host/schema/state";
import {
  FS, allFinite, db, engineWith, magnitude, maxStep, peak, peakFrequency, play, renderFrames, singleTone,
} from "./helpers";

describe("oscillators", () => {
  const cases: [Waveform, number][] = [["sine", 432], ["square", 528], ["sawtooth", 639.5], ["triangle", 741.25]];
  for (const [w, f] of cases) {
    it(`${w} at ${f} Hz peaks at ${f} Hz within 0.05 Hz over 10 s`, () => {
      const { left } = play(singleTone(f, w), 10);
      expect(Math.abs(peakFrequency(left, FS, 2 ** 20) - f)).toBeLessThan(0.05);
    });
  }

  for (const w of ["square", "sawtooth"] as const) {
    it(`${w} at 5 kHz keeps every aliased component 80 dB below the fundamental`, () => {
      const size = 65536;
      const { left } = play(singleTone(5000, w), 0.2 + size / FS);
      const mag = magnitude(left, size, 4800, size);
      const binHz = FS / size;
      const fundamental = mag[Math.round(5000 / binHz)];
      let worst = 0;
      let worstHz = 0;
      for (let k = 10; k < 20000 / binHz; k++) {
        const hz = k * binHz;
        const nearest = Math.round(hz / 5000) * 5000;
        if (nearest > 0 && Math.abs(hz - nearest) < 8 * binHz) continue; // a harmonic's main lobe
        if (mag[k] > worst) { worst = mag[k]; worstHz = hz; }
      }
      const rel = db(worst / fundamental);
      expect(rel, `worst alias ${rel.toFixed(1)} dB at ${worstHz.toFixed(0)} Hz`).toBeLessThan(-80);
    });
  }

  it("0 Hz is silent", () => {
    const { left } = play(singleTone(0, "sawtooth"), 0.1);
    expect(peak(left)).toBe(0);
  });

  it("phase after 12 hours is within 1e-6 cycles of exact", () => {
    const frames = 12 * 3600 * FS;
    for (const f of [432, 528.37, 7.83, 19999.99]) {
      const e = engineWith(singleTone(f));
      e.start();
      e.advance(frames);
      // Exact phase: frac(f * frames / FS), computed in integers (f has 2 decimals).
      const num = BigInt(Math.round(f * 100)) * BigInt(frames);
      const den = BigInt(FS * 100);
      const exact = Number(num % den) / Number(den);
      let d = Math.abs(e.channelPhase(0) - exact);
      d = Math.min(d, 1 - d);
      expect(d, `${f} Hz`).toBeLessThan(1e-6);
    }
  });
});

describe("live changes", () => {
  for (const w of WAVEFORMS) {
    it(`a frequency jump on a ${w} makes no step larger than the waveform's own`, () => {
      // Pitches that drift against the sample grid, so the steady renders below visit every
      // phase offset and measure the waveform's true largest step.
      const state = singleTone(300.7, w);
      const e = engineWith(state);
      e.start();
      const before = renderFrames(e, 4800, 128).left;
      state.channels[0].frequency = 3001.3;
      e.apply(state);
      const after = renderFrames(e, 9600, 128).left;
      // The waveform's own largest step at either pitch, measured on steady renders.
      const own = Math.max(maxStep(play(singleTone(300.7, w), 0.5).left, 4800), maxStep(play(singleTone(3001.3, w), 0.5).left, 4800));
      const joined = new Float32Array([...before.slice(-64), ...after]);
      expect(maxStep(joined)).toBeLessThanOrEqual(own * 1.02);
      expect(Math.abs(peakFrequency(after.slice(4800), FS, 65536) - 3001.3)).toBeLessThan(1);
    });
  }

  it("switching a channel off and on fades instead of clicking", () => {
    const state = singleTone(440);
    const e = engineWith(state);
    e.start();
    const a = renderFrames(e, 4800, 128).left;
    state.channels[0].enabled = false;
    e.apply(state);
    const b = renderFrames(e, 9600, 128).left;
    const own = maxStep(a, 2400);
    expect(maxStep(new Float32Array([...a.slice(-8), ...b]))).toBeLessThanOrEqual(own * 1.02);
    expect(peak(b.slice(4800))).toBe(0);
    expect(e.playing).toBe(true);
  });
});

describe("transport", () => {
  it("starts after the 50 ms delay", () => {
    const e = engineWith(singleTone(440));
    expect(e.start({ delay: 0.05 })).toBe(true);
    const { left } = renderFrames(e, 4800, 128);
    expect(peak(left.slice(0, 2400))).toBe(0);
    expect(peak(left.slice(2400 + 480))).toBeGreaterThan(0.01);
  });

  it("stop reaches silence within 50 ms and stays there", () => {
    const e = engineWith(defaultAudioState());
    e.start();
    renderFrames(e, 24000, 128);
    e.stop();
    const { left, right } = renderFrames(e, 48000, 128);
    expect(peak(left.slice(0, 240))).toBeGreaterThan(0.005); // still fading, not cut
    expect(peak(left.slice(2400))).toBe(0);
    expect(peak(right.slice(2400))).toBe(0);
    expect(e.playing).toBe(false);
  });

  it("auto-stop ends at the exact sample", () => {
    const e = engineWith(singleTone(440));
    e.start({ duration: 1.5 });
    const { left } = renderFrames(e, 96000, 1000);
    let last = -1;
    for (let i = 0; i < left.length; i++) if (left[i] !== 0) last = i;
    expect(last).toBeLessThan(72000);
    expect(last).toBeGreaterThan(72000 - 20);
    expect(e.framesPlayed).toBe(72000);
    expect(e.playing).toBe(false);
    // The end is a fade, not a cut: the last 50 ms fall smoothly.
    expect(peak(left.slice(72000 - 2400, 72000 - 2300))).toBeGreaterThan(peak(left.slice(72000 - 100, 72000)) * 5);
  });

  it("starting with no enabled channel above 0 Hz stays silent and not playing", () => {
    const s = defaultAudioState();
    s.channels = s.channels.map((c, i) => ({ ...c, enabled: i === 0, frequency: 0 }));
    const e = engineWith(s);
    expect(e.start()).toBe(false);
    expect(e.playing).toBe(false);
    expect(peak(renderFrames(e, 4800).left)).toBe(0);
  });

  it("identical state renders identical bytes, whatever the host's block size", () => {
    const s = defaultAudioState();
    s.channels[1].waveform = "square";
    s.channels[2].waveform = "sawtooth";
    s.channels[3].waveform = "triangle";
    const a = play(s, 2).left;
    const b = play(s, 2).left;
    const e = engineWith(s);
    e.start();
    const c = renderFrames(e, 96000, 128).left;
    const e2 = engineWith(s);
    e2.start();
    const d = renderFrames(e2, 96000, 1000).left;
    expect(Buffer.from(a.buffer).equals(Buffer.from(b.buffer))).toBe(true);
    expect(Buffer.from(a.buffer).equals(Buffer.from(c.buffer))).toBe(true);
    expect(Buffer.from(a.buffer).equals(Buffer.from(d.buffer))).toBe(true);
  });
});

describe("safety", () => {
  it("never produces NaN, Inf or samples above 0 dBFS for any channel settings in range", () => {
    const channel = fc.record({
      frequency: fc.oneof(fc.constantFrom(0, 0.01, 1, 20000, 19999.99), fc.double({ min: 0, max: 20000, noNaN: true })),
      waveform: fc.constantFrom(...WAVEFORMS),
      enabled: fc.boolean(),
      volume: fc.double({ min: 0, max: 1, noNaN: true }),
    });
    const e = createNodeEngine(FS);
    fc.assert(
      fc.property(fc.array(channel, { minLength: 4, maxLength: 4 }), fc.array(channel, { minLength: 4, maxLength: 4 }), (a, b) => {
        const s = defaultAudioState();
        s.channels = a.map((c, i) => ({ ...c, id: i + 1 }));
        e.apply(s);
        e.start();
        const x = renderFrames(e, 2048, 512);
        s.channels = b.map((c, i) => ({ ...c, id: i + 1 }));
        e.apply(s);
        const y = renderFrames(e, 2048, 512);
        return allFinite(x.left) && allFinite(y.right) && peak(x.left) <= 1 && peak(y.left) <= 1 && peak(y.right) <= 1;
      }),
      { numRuns: 150 },
    );
  });

  it("the base patch stays below 0 dBFS and is audible", () => {
    const s = defaultAudioState();
    s.channels[1].waveform = "square";
    s.channels[2].waveform = "sawtooth";
    s.channels[3].waveform = "triangle";
    const { left } = play(s, 1);
    expect(peak(left)).toBeLessThan(1);
    expect(peak(left)).toBeGreaterThan(0.05);
  });
});
