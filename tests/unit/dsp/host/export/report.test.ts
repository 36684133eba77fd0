// The export report's collector on synthetic signals (known frequencies, an injected click, clipped
// samples, a frequency ramp) and on real renders through the engine (440 Hz with a 10 Hz binaural
// beat: ears at 435 and 445 Hz), fed block by block as the export feeds it.

import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { WavRenderer } from "../../../../../dsp/host/export/render";
import { ExportReportCollector, STEADY_TOLERANCE_HZ, type ExportReport, type ToneCheck } from "../../../../../dsp/host/export/report";
import { formatReport, reportSummary } from "../../../../../dsp/host/export/report-text";
import { createNodeEngine } from "../../../../../dsp/host/node";
import { defaultAudioState, type AudioState } from "../../../../../dsp/host/schema/state";
import type { Timeline } from "../../../../../dsp/host/schema/timeline";
import { FS, singleTone } from "../../assembly/helpers";

/** A state with channels at the given frequencies (the others off), effects off. */
function tones(...freqs: number[]): AudioState {
  const s = defaultAudioState();
  s.channels = s.channels.map((c, i) => (i < freqs.length ? { ...c, frequency: freqs[i], enabled: true } : { ...c, enabled: false }));
  return s;
}

/** Planar stereo of `seconds`, each ear a sum of sines whose frequency (Hz at time t) is given. */
function synth(seconds: number, left: ((t: number) => number)[], right = left, amp = 0.1): { left: Float32Array; right: Float32Array } {
  const n = Math.round(seconds * FS);
  const out = { left: new Float32Array(n), right: new Float32Array(n) };
  for (const [ear, fns] of [[out.left, left], [out.right, right]] as const) {
    for (const f of fns) {
      let phase = 0;
      for (let i = 0; i < n; i++) {
        ear[i] += amp * Math.sin(phase);
        phase += (2 * Math.PI * f(i / FS)) / FS;
      }
    }
  }
  return out;
}

/** Feeds a whole signal in blocks of `block` frames, as WavRenderer does. */
function collect(c: ExportReportCollector, s: { left: Float32Array; right: Float32Array }, block = 16384): ExportReport {
  for (let pos = 0; pos < s.left.length; pos += block) {
    c.push(s.left.subarray(pos, pos + block), s.right.subarray(pos, pos + block), pos);
  }
  return c.finish();
}

const carriers = (r: ExportReport): ToneCheck[] => r.windows.flatMap((w) => w.checks.filter((c) => c.kind === "carrier"));
const steady = (f: number) => () => f;

describe("export report: synthetic signals", () => {
  it("measures steady tones within a thousandth of a hertz in start, middle and end windows", () => {
    const state = tones(432.25, 1000, 7777.7);
    const r = collect(new ExportReportCollector({ sampleRate: FS, duration: 12, state }), synth(12, [steady(432.25), steady(1000), steady(7777.7)]));
    expect(r.windows.map((w) => w.label)).toEqual(["start", "middle", "end"]);
    // The start window begins after the 2 s fade-in; the end one stops before the last 50 ms.
    expect(r.windows[0].start).toBeGreaterThanOrEqual(2);
    expect(r.windows[2].start + r.windows[2].seconds).toBeLessThanOrEqual(12 - 0.05);
    expect(carriers(r)).toHaveLength(9);
    for (const c of carriers(r)) {
      expect(c.status).toBe("pass");
      expect(c.ear).toBe("mix");
      expect(Math.abs(c.measuredHz! - c.expectedHz)).toBeLessThan(0.001);
      expect(c.toleranceHz).toBe(STEADY_TOLERANCE_HZ);
      expect(c.levelDbfs).toBeCloseTo(-20, 1); // amplitude 0.1 in both ears, so in their mean
    }
    expect(r.pass).toBe(true);
    expect(reportSummary(r)).toBe("Verified: 10 of 10 checks passed.");
  });

  it("fails a tone that is 0.3 Hz off and says by how much", () => {
    const state = tones(500, 600);
    const r = collect(new ExportReportCollector({ sampleRate: FS, duration: 10, state }), synth(10, [steady(500.3), steady(600)]));
    const ch1 = carriers(r).filter((c) => c.channel === 1);
    expect(ch1.map((c) => c.status)).toEqual(["fail", "fail", "fail"]);
    expect(ch1[0].measuredHz).toBeCloseTo(500.3, 2);
    expect(carriers(r).filter((c) => c.channel === 2).every((c) => c.status === "pass")).toBe(true);
    expect(r.pass).toBe(false);
    expect(formatReport(r)).toContain("FAIL Channel 1: expected 500.000 Hz, measured 500.300 Hz (+0.300), tolerance ±0.100 Hz");
  });

  it("measures each ear on its own with the binaural beat on and reports the beat as right - left", () => {
    const state = tones(200);
    state.effects.binaural = { enabled: true, value: 7 };
    const r = collect(new ExportReportCollector({ sampleRate: FS, duration: 10, state }), synth(10, [steady(196.5)], [steady(203.5)]));
    const w = r.windows[1];
    expect(w.checks.map((c) => [c.ear, c.kind, c.expectedHz, c.status])).toEqual([
      ["left", "carrier", 196.5, "pass"],
      ["right", "carrier", 203.5, "pass"],
      ["mix", "beat", 7, "pass"],
    ]);
    expect(Math.abs(w.checks[2].measuredHz! - 7)).toBeLessThan(0.002);

    // Both ears at the mean pitch (no beat): the right ear fails and so does the beat.
    const mono = collect(new ExportReportCollector({ sampleRate: FS, duration: 10, state }), synth(10, [steady(200)]));
    expect(mono.windows[1].checks.map((c) => c.status)).toEqual(["fail", "fail", "fail"]);
    expect(mono.windows[1].checks[0].note).toBe("No tone found within 2.93 Hz.");
  });

  it("counts clipped samples and reports the peak", () => {
    const s = synth(4, [steady(300)]);
    s.left[48000] = 1;
    s.left[48001] = -1;
    s.right[96000] = 1;
    const r = collect(new ExportReportCollector({ sampleRate: FS, duration: 4, state: tones(300) }), s);
    expect(r.clippedSamples).toBe(3);
    expect(r.clipping).toBe("fail");
    expect(r.peak).toBe(1);
    expect(r.peakDbfs).toBe(0);
    expect(formatReport(r)).toContain("FAIL Clipping: 3 samples at or beyond full scale");
    const clean = collect(new ExportReportCollector({ sampleRate: FS, duration: 4, state: tones(300) }), synth(4, [steady(300)]));
    expect(clean.clippedSamples).toBe(0);
    expect(clean.peakDbfs).toBeCloseTo(-20, 1);
  });

  it("gives the same report whatever the block size", () => {
    const state = tones(440);
    const sig = synth(6, [steady(440)]);
    const a = collect(new ExportReportCollector({ sampleRate: FS, duration: 6, state }), sig, 16384);
    const b = collect(new ExportReportCollector({ sampleRate: FS, duration: 6, state }), sig, 997);
    expect(b).toEqual(a);
  });

  it("rejects frames out of order, and says when a sound is too short to measure", () => {
    const c = new ExportReportCollector({ sampleRate: FS, duration: 3, state: tones(440) });
    expect(() => c.push(new Float32Array(10), new Float32Array(10), 5)).toThrow("Expected frame 0, got 5");
    const short = collect(new ExportReportCollector({ sampleRate: FS, duration: 2, state: tones(440) }), synth(2, [steady(440)]));
    expect(short.windows).toEqual([]);
    expect(short.windowsNote).toBe("Too short to measure frequencies after the fade-in: that needs at least 2.4 s of audio.");
    expect(() => new ExportReportCollector({ sampleRate: FS, duration: 0, state: tones(440) })).toThrow(RangeError);
  });
});

describe("export report: timelines", () => {
  // 0-4 s at 300 Hz, a jump to 450 Hz at 4 s (the 10 ms jump glide), a linear ramp to 650 Hz at 10 s.
  const timeline: Timeline = {
    steps: [
      { at: 4, ramp: "hold", channels: [{ id: 1, frequency: 450 }] },
      { at: 10, ramp: "linear", channels: [{ id: 1, frequency: 650 }] },
    ],
  };
  const state = { ...tones(300), timeline };
  const f = (t: number) => (t < 4 ? 300 : t < 4.01 ? 300 + (150 * (t - 4)) / 0.01 : t < 10 ? 450 + (200 * (t - 4)) / 6 : 650);

  it("expects the timeline's value at each window's centre, with a ramp's wider tolerance", () => {
    const r = collect(new ExportReportCollector({ sampleRate: FS, duration: 12, state }), synth(12, [f]));
    const [start, middle, end] = r.windows;
    expect(start.checks[0]).toMatchObject({ expectedHz: 300, ramp: false, status: "pass" });
    for (const w of [middle, end]) {
      const c = w.checks[0];
      const centre = w.start + w.seconds / 2;
      expect(c.ramp).toBe(centre > 4 && centre < 10);
      if (c.ramp) {
        expect(c.expectedHz).toBeCloseTo(450 + (200 * (centre - 4)) / 6, 1); // start is shown to the ms
        expect(c.toleranceHz).toBeCloseTo(0.1 + 0.05 * (200 / 6) * w.seconds, 2);
      }
      expect(c.status).toBe("pass");
      expect(Math.abs(c.measuredHz! - c.expectedHz)).toBeLessThan(0.01);
    }
    // No window holds the step at 4 s.
    for (const w of r.windows) expect(w.start > 4.03 || w.start + w.seconds < 3.98).toBe(true);
    expect(r.boundaries.map((b) => [b.step, b.at, b.status])).toEqual([[1, 4, "pass"], [2, 10, "pass"]]);
    expect(r.boundaries[0].maxStep).toBeLessThan(r.boundaries[0].limit);
  });

  it("finds a click injected at a step boundary", () => {
    const sig = synth(12, [f]);
    const at = 4 * FS + 100; // inside the jump
    for (let i = at; i < sig.left.length; i++) sig.left[i] = -sig.left[i]; // a polarity flip: a jump of up to 0.2
    const r = collect(new ExportReportCollector({ sampleRate: FS, duration: 12, state }), sig);
    const b = r.boundaries[0];
    expect(b.status).toBe("fail");
    expect(b.maxStep).toBeCloseTo(Math.abs(sig.left[at] - sig.left[at - 1]), 5);
    expect(b.maxStep).toBeGreaterThan(0.15);
    expect(b.maxStep).toBeGreaterThan(b.limit);
    expect(r.boundaries[1].status).toBe("pass");
    expect(formatReport(r)).toMatch(/FAIL Step 1 at 0:04: largest sample step 0\.\d{4} \(before 0\.00\d\d, after 0\.00\d\d, limit 0\.0\d{3}\)/);
  });

  it("measures a slower or faster ramp than the schedule as a failure", () => {
    const wrong = (t: number) => (t < 4.01 ? f(t) : t < 10 ? 450 + (260 * (t - 4)) / 6 : 710); // ends at 710 Hz
    const r = collect(new ExportReportCollector({ sampleRate: FS, duration: 12, state }), synth(12, [wrong]));
    const late = r.windows.filter((w) => w.start > 6).map((w) => w.checks[0]);
    expect(late.length).toBeGreaterThan(0);
    for (const c of late) expect(c.status).toBe("fail");
  });
});

describe("export report: real renders", () => {
  function renderWithReport(state: AudioState, seconds: number): { report: ExportReport; sha: string } {
    const collector = new ExportReportCollector({ sampleRate: FS, duration: seconds, state });
    const renderer = new WavRenderer(createNodeEngine(FS), state, seconds, { observer: collector });
    const hash = createHash("sha256");
    for (const chunk of renderer.chunks()) hash.update(chunk);
    return { report: collector.finish(), sha: hash.digest("hex") };
  }

  it("440 Hz with a 10 Hz binaural beat: ears at 435 and 445 Hz, beat 10 Hz, no clipping", () => {
    const state = singleTone(440);
    state.effects.binaural = { enabled: true, value: 10 };
    const { report } = renderWithReport(state, 8);
    expect(report.windows).toHaveLength(3);
    for (const w of report.windows) {
      const [l, r, beat] = w.checks;
      expect(l).toMatchObject({ ear: "left", expectedHz: 435, status: "pass" });
      expect(r).toMatchObject({ ear: "right", expectedHz: 445, status: "pass" });
      expect(beat).toMatchObject({ kind: "beat", expectedHz: 10, status: "pass" });
      expect(Math.abs(l.measuredHz! - 435)).toBeLessThan(0.01);
      expect(Math.abs(r.measuredHz! - 445)).toBeLessThan(0.01);
      expect(Math.abs(beat.measuredHz! - 10)).toBeLessThan(0.02);
    }
    expect(report.clippedSamples).toBe(0);
    expect(report.pass).toBe(true);
  });

  it("does not change the exported bytes", () => {
    const state = defaultAudioState();
    const { sha } = renderWithReport(state, 3);
    const plain = new WavRenderer(createNodeEngine(FS), state, 3);
    const hash = createHash("sha256");
    for (const chunk of plain.chunks()) hash.update(chunk);
    expect(sha).toBe(hash.digest("hex"));
  });

  it("a two-step timeline through the engine: start, middle and end windows match the schedule, no clicks", () => {
    // 300 Hz with a 6 Hz beat; at 5 s a jump to 500 Hz; from there a linear ramp to 800 Hz at
    // 12 s with the beat ramping to 10 Hz; 800 Hz held to the end at 14 s.
    const state: AudioState = { ...singleTone(300), timeline: {
      steps: [
        { at: 5, ramp: "hold", channels: [{ id: 1, frequency: 500 }] },
        { at: 12, ramp: "linear", channels: [{ id: 1, frequency: 800 }], effects: { binaural: { value: 10 } } },
      ],
    } };
    state.effects.binaural = { enabled: true, value: 6 };
    const { report } = renderWithReport(state, 14);
    const [start, middle, end] = report.windows;
    expect([start.clearOfSteps, middle.clearOfSteps, end.clearOfSteps]).toEqual([true, true, true]);
    expect(start.checks.map((c) => c.expectedHz)).toEqual([297, 303, 6]);
    expect(end.checks.map((c) => c.expectedHz)).toEqual([795, 805, 10]);
    // The middle window sits on the ramp: the expectation is the schedule at its centre.
    const t = middle.start + middle.seconds / 2;
    expect(t).toBeGreaterThan(5);
    expect(t).toBeLessThan(12);
    const f = 500 + (300 * (t - 5)) / 7;
    const beat = 6 + (4 * (t - 5)) / 7;
    expect(middle.checks[0].expectedHz).toBeCloseTo(f - beat / 2, 1);
    expect(middle.checks[1].expectedHz).toBeCloseTo(f + beat / 2, 1);
    expect(middle.checks[0].ramp).toBe(true);
    // The beat is held to its own sweep (4 Hz over 7 s), not the ears' 300 Hz.
    expect(middle.checks[2].toleranceHz).toBeLessThan(0.5);
    expect(Math.abs(middle.checks[2].measuredHz! - middle.checks[2].expectedHz)).toBeLessThan(0.05);
    for (const w of report.windows) for (const c of w.checks) {
      expect(c.status).toBe("pass");
      expect(Math.abs(c.measuredHz! - c.expectedHz)).toBeLessThan(c.ramp ? c.toleranceHz : 0.01);
    }
    expect(report.boundaries.map((b) => [b.step, b.at, b.status])).toEqual([[1, 5, "pass"], [2, 12, "pass"]]);
    expect(report.pass).toBe(true);
  });

  it("skips windows where a pitch-changing effect runs, with the reason", () => {
    const state = singleTone(440);
    state.effects.frequencyShifter = { enabled: true, value: 50 };
    const { report } = renderWithReport(state, 5);
    const c = report.windows[0].checks[0];
    expect(c.status).toBe("skipped");
    expect(c.note).toBe("Frequency Shifter changes the pitches: not measured.");
    expect(report.pass).toBe(true);
  });
});
