// A 12-hour session timeline through the export's own streamed renderer (WavRenderer, used by the
// browser's export worker and the render CLI alike), every frame of it: the engine has no seek
// (advance() moves only the oscillators' clocks, not the timeline), so the whole file is rendered
// and only a few windows are kept. The schedule: a slow linear rise from 0:00 to 6:00:00 (1 Hz an
// hour), held to 11:59:00, a jump there and a last-minute ramp ending on the file's last frame.
// Asserted: the file is exactly 12 h of frames (RF64), the pitch measured by zero crossings matches
// the schedule within 0.1 Hz around 6:00:00 and 11:59:00, and no step boundary nor the file's end
// clicks (largest sample-to-sample step no larger than a steady tone's).

import { describe, expect, it } from "vitest";
import { WavRenderer, type BlockObserver } from "../../../../../dsp/host/export/render";
import { DEFAULT_LEVELS } from "../../../../../dsp/host/schema/levels";
import { createNodeEngine } from "../../../../../dsp/host/node";
import { defaultAudioState, type AudioState } from "../../../../../dsp/host/schema/state";
import { parseWavHeader, WAV_BLOCK_ALIGN } from "../../../../../dsp/host/export/wav";

const FS = 48000;
const HOURS_12 = 12 * 3600;
const T6 = 6 * 3600;
const T1159 = 11 * 3600 + 59 * 60;

/** The schedule's channel-1 frequency at t seconds (jump at 11:59:00 taken at the step's time). */
function scheduled(t: number): number {
  if (t < T6) return 200 + (6 * t) / T6;
  if (t < T1159) return 206;
  return 300 + (30 * (t - T1159)) / (HOURS_12 - T1159);
}

function session(): AudioState {
  const s = defaultAudioState();
  s.channels = s.channels.map((c, i) => (i === 0 ? { ...c, frequency: 200, waveform: "sine", volume: 0.5, enabled: true } : { ...c, enabled: false }));
  s.duration = HOURS_12;
  s.timeline = {
    steps: [
      { at: T6, ramp: "linear", channels: [{ id: 1, frequency: 206 }] },
      { at: T1159, ramp: "hold", channels: [{ id: 1, frequency: 300 }] },
      { at: HOURS_12, ramp: "linear", channels: [{ id: 1, frequency: 330 }] },
    ],
  };
  return s;
}

/** Keeps copies of the left channel in a few frame windows while the file streams past. */
class Windows implements BlockObserver {
  readonly data: Float32Array[];
  frames = 0;
  gaps = 0;
  constructor(readonly spans: readonly [number, number][]) {
    this.data = spans.map(([, n]) => new Float32Array(n));
  }
  push(left: Float32Array, _right: Float32Array, firstFrame: number): void {
    if (firstFrame !== this.frames) this.gaps++;
    const end = firstFrame + left.length;
    this.spans.forEach(([start, n], w) => {
      const a = Math.max(start, firstFrame);
      const b = Math.min(start + n, end);
      if (a < b) this.data[w].set(left.subarray(a - firstFrame, b - firstFrame), a - start);
    });
    this.frames = end;
  }
}

/** Mean frequency between the first and last upward zero crossing of x (whole cycles), and the
 *  time (s, from the window's start) of that stretch's middle: on a linear ramp the mean is
 *  exactly the frequency there. */
function crossingPitch(x: Float32Array): { f: number; mid: number } {
  const ups: number[] = [];
  for (let i = 1; i < x.length; i++) if (x[i - 1] < 0 && x[i] >= 0) ups.push(i - 1 + x[i - 1] / (x[i - 1] - x[i]));
  const first = ups[0];
  const last = ups[ups.length - 1];
  return { f: ((ups.length - 1) * FS) / (last - first), mid: (first + last) / 2 / FS };
}

function maxStep(x: Float32Array, from = 1, to = x.length): number {
  let m = 0;
  for (let i = Math.max(1, from); i < to; i++) m = Math.max(m, Math.abs(x[i] - x[i - 1]));
  return m;
}

function peak(x: Float32Array): number {
  let m = 0;
  for (const v of x) m = Math.max(m, Math.abs(v));
  return m;
}

describe("a 12-hour timeline export", () => {
  it("is exactly 12 h of frames, on pitch within 0.1 Hz at its late steps, and never clicks", () => {
    const at = (t: number) => Math.round(t * FS);
    const second = FS;
    // [first frame, frames]: one second windows to measure pitch, and spans around the steps.
    const spans: [number, number][] = [
      [at(T6 - 10), second], // 0: before 6:00:00
      [at(T6 + 9), second], // 1: after it
      [at(T6) - second / 2, second], // 2: across 6:00:00
      [at(T1159 - 10), second], // 3: 11:58:50
      [at(T1159 - 1.5), second], // 4: just before the jump
      [at(T1159) - second / 2, second], // 5: across the jump at 11:59:00
      [at(T1159 + 1), second], // 6: just after it, on the last ramp
      [at(T1159 + 30), second], // 7: 11:59:30
      [at(HOURS_12) - 2 * second, 2 * second], // 8: the last two seconds (the engine's 50 ms stop fade)
    ];
    const windows = new Windows(spans);
    const engine = createNodeEngine(FS);
    const renderer = new WavRenderer(engine, session(), HOURS_12, { levels: DEFAULT_LEVELS, observer: windows });

    const started = performance.now();
    const chunk = new Uint8Array(1 << 20);
    let bytes = 0;
    let header: Uint8Array | null = null;
    for (let n = renderer.read(chunk); n > 0; n = renderer.read(chunk)) {
      if (!header) header = chunk.slice(0, 128);
      bytes += n;
    }
    const seconds = (performance.now() - started) / 1000;
    console.log(`12 h timeline export rendered in ${seconds.toFixed(1)} s (${(HOURS_12 / seconds).toFixed(0)}x realtime)`);

    // Exactly 12 hours of 48 kHz stereo PCM16, as the header says (RF64: over 4 GiB).
    expect(renderer.plan.frames).toBe(HOURS_12 * FS);
    expect(windows.frames).toBe(HOURS_12 * FS);
    expect(windows.gaps).toBe(0);
    expect(bytes).toBe(renderer.plan.totalBytes);
    const info = parseWavHeader(header!);
    expect(info.container).toBe("RF64");
    expect(info.frames).toBe(HOURS_12 * FS);
    expect(bytes - info.dataOffset).toBe(HOURS_12 * FS * WAV_BLOCK_ALIGN);

    // Pitch by zero crossings in each one-second window against the schedule at its middle.
    const w = windows.data;
    const errors = [0, 1, 3, 4, 6, 7].map((k) => {
      const { f, mid } = crossingPitch(w[k]);
      const t = spans[k][0] / FS + mid;
      return { t, f, expected: scheduled(t) };
    });
    console.log(errors.map((e) => `${e.t.toFixed(2)} s: ${e.f.toFixed(4)} Hz (schedule ${e.expected.toFixed(4)})`).join("\n"));
    for (const e of errors) expect(Math.abs(e.f - e.expected), `at ${e.t.toFixed(3)} s: ${e.f} Hz`).toBeLessThan(0.1);

    // No clicks: across each step the largest sample-to-sample step stays that of a steady tone at
    // the higher pitch (a sine of amplitude A at f moves at most 2 A sin(pi f / fs) per sample).
    const steady300 = maxStep(w[6]);
    console.log(`largest step: across 6:00:00 ${maxStep(w[2]).toExponential(3)}, after it ${maxStep(w[1]).toExponential(3)}; across 11:59:00 ${maxStep(w[5]).toExponential(3)}, at 300 Hz ${steady300.toExponential(3)}; last 2 s ${maxStep(w[8]).toExponential(3)}`);
    expect(maxStep(w[5]), "jump at 11:59:00").toBeLessThanOrEqual(steady300 * 1.01);
    expect(maxStep(w[2]), "6:00:00").toBeLessThanOrEqual(maxStep(w[1]) * 1.01);
    const amp = peak(w[6]);
    expect(amp).toBeGreaterThan(0.05);
    expect(steady300).toBeLessThanOrEqual(2 * amp * Math.sin((Math.PI * 301) / FS) * 1.01);
    // The end: the last minute's ramp reaches 330 Hz and the stop fade takes it to silence.
    const end = w[8];
    const fadeStart = end.length - Math.round(0.05 * FS);
    expect(maxStep(end)).toBeLessThanOrEqual(2 * amp * Math.sin((Math.PI * 331) / FS) * 1.01);
    expect(peak(end.subarray(0, fadeStart - FS / 10))).toBeGreaterThan(0.9 * amp);
    expect(Math.abs(end[end.length - 1])).toBeLessThan(0.01 * amp);
  }, 240_000);
});
