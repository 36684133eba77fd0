// Safe levels in the engine: the true-peak limiter, its exact passthrough, the fade-in,
// the per-ear balance, the output gain and the sleep timer, measured on rendered audio.

import { describe, expect, it } from "vitest";
import { TruePeakMeter } from "../../../../dsp/host/analysis/loudness";
import { DEFAULT_LEVELS, LIMITER_CEILING_DBTP, balanceGains, type Levels } from "../../../../dsp/host/schema/levels";
import { defaultAudioState, type AudioState } from "../../../../dsp/host/schema/state";
import { FS, allFinite, engineWith, peak, renderFrames, sameBits, singleTone } from "./helpers";

const NEUTRAL: Levels = { fadeIn: 0.005, limiter: false, balance: 0 };
const LIMITED: Levels = { fadeIn: 0.005, limiter: true, balance: 0 };

function truePeakDb(x: { left: Float32Array; right: Float32Array }): number {
  const m = new TruePeakMeter(2);
  m.push(x.left, x.right);
  return m.truePeakDb();
}

/** States that drive the master hard: full-volume squares and sawtooths, noise, distortion,
 *  supersaw and harmonizer, glitch and bitcrusher. */
function loudStates(): [string, AudioState][] {
  const squares = defaultAudioState();
  squares.channels = squares.channels.map((c, i) => ({ ...c, waveform: "square", volume: 1, frequency: [40, 80, 5000, 11000][i] }));
  squares.effects.distortion = { ...squares.effects.distortion, enabled: true, value: 100 };
  squares.effects.supersaw = { ...squares.effects.supersaw, enabled: true, value: 100 };
  squares.effects.harmonizer = { ...squares.effects.harmonizer, enabled: true, value: 100 };
  const saws = defaultAudioState();
  saws.channels = saws.channels.map((c, i) => ({ ...c, waveform: "sawtooth", volume: 1, frequency: [19000, 17000, 12001, 9000][i] }));
  const noise = defaultAudioState();
  noise.effects.noise = { ...noise.effects.noise, enabled: true, value: 100 };
  noise.effects.distortion = { ...noise.effects.distortion, enabled: true, value: 100 };
  const glitch = defaultAudioState();
  glitch.channels = glitch.channels.map((c) => ({ ...c, waveform: "square", volume: 1 }));
  glitch.effects.glitch = { ...glitch.effects.glitch, enabled: true };
  glitch.effects.bitcrusher = { ...glitch.effects.bitcrusher, enabled: true, value: 2 };
  glitch.effects.gate = { ...glitch.effects.gate, enabled: true, value: 16 };
  return [["four squares, distortion, supersaw, harmonizer", squares], ["four high sawtooths", saws], ["noise and distortion", noise], ["squares, glitch, bitcrusher, gate", glitch]];
}

function playWith(state: AudioState, levels: Levels, seconds: number, setup?: (e: ReturnType<typeof engineWith>) => void, block = 128) {
  const e = engineWith(state);
  e.setLevels(levels);
  setup?.(e);
  e.start();
  return { ...renderFrames(e, Math.round(seconds * FS), block), engine: e };
}

describe("true-peak limiter", () => {
  for (const [name, state] of loudStates()) {
    for (const compressor of [true, false]) {
      it(`keeps ${name} (compressor ${compressor ? "on" : "off"}, +24 dB output gain) at or under ${LIMITER_CEILING_DBTP} dBTP`, () => {
        const setup = (e: ReturnType<typeof engineWith>) => {
          e.setCompressor(compressor);
          e.setOutputGain(16);
        };
        const unlimited = playWith(state, NEUTRAL, 2, setup);
        const limited = playWith(state, LIMITED, 2, setup);
        // Without the limiter the same sound goes over (it clips at the final clamp).
        expect(truePeakDb(unlimited)).toBeGreaterThan(LIMITER_CEILING_DBTP);
        expect(truePeakDb(limited)).toBeLessThanOrEqual(LIMITER_CEILING_DBTP);
        expect(limited.engine.limiterMinGain).toBeLessThan(1);
        expect(allFinite(limited.left) && allFinite(limited.right)).toBe(true);
      });
    }
  }

  it("adds no latency: frame n of the output is frame n of the sound, scaled by a smooth gain", () => {
    // A steady 997 Hz sine at -0.4 dBFS: the limiter brings it under -1.3 dB with a near-constant
    // gain, so output / input stays flat; a delay of even one frame would make it swing.
    const state = singleTone(997);
    state.channels[0].volume = 0.5;
    const gain = (e: ReturnType<typeof engineWith>) => {
      e.setCompressor(false);
      e.setOutputGain(0.955 / 0.12); // one channel at the nominal volume (0.5) peaks at 0.15 x 0.8
    };
    const dry = playWith(state, NEUTRAL, 1, gain);
    const wet = playWith(state, LIMITED, 1, gain);
    expect(peak(dry.left.subarray(24000))).toBeGreaterThan(0.9);
    expect(peak(dry.left.subarray(24000))).toBeLessThan(1);
    const ratios: number[] = [];
    for (let i = 24000; i < 48000; i++) if (Math.abs(dry.left[i]) > 0.2) ratios.push(wet.left[i] / dry.left[i]);
    const lo = Math.min(...ratios);
    const hi = Math.max(...ratios);
    expect(lo).toBeGreaterThan(0.85);
    expect(hi - lo).toBeLessThan(0.01);
  });

  it("is an exact passthrough below the ceiling: bit-identical output, whatever the host's block size", () => {
    const states: AudioState[] = [defaultAudioState()];
    const waves = defaultAudioState();
    waves.channels[1].waveform = "square";
    waves.channels[2].waveform = "sawtooth";
    waves.channels[3].waveform = "triangle";
    states.push(waves);
    const fx = defaultAudioState();
    for (const id of ["reverb", "chorus", "binaural", "tremolo", "noise"]) fx.effects[id] = { ...fx.effects[id], enabled: true };
    states.push(fx);
    for (const s of states) {
      const off = playWith(s, NEUTRAL, 2, undefined, 128);
      const on = playWith(s, LIMITED, 2, undefined, 1000);
      expect(sameBits(off.left, on.left)).toBe(true);
      expect(sameBits(off.right, on.right)).toBe(true);
      expect(on.engine.limiterMinGain).toBe(1);
    }
  });

  it("switched on and off while playing, it never drops or repeats a block", () => {
    const s = defaultAudioState();
    const ref = playWith(s, NEUTRAL, 1);
    const e = engineWith(s);
    e.setLevels(NEUTRAL);
    e.start();
    const parts: Float32Array[] = [];
    for (let i = 0; i < 6; i++) {
      e.setLevels(i % 2 === 0 ? LIMITED : NEUTRAL);
      parts.push(renderFrames(e, 8000, 128).left);
    }
    const joined = new Float32Array(48000);
    parts.forEach((p, i) => joined.set(p, i * 8000));
    expect(sameBits(joined, ref.left)).toBe(true);
  });
});

describe("fade-in", () => {
  const smoothstep = (p: number) => p * p * (3 - 2 * p);

  it("rises from silence along a smoothstep over the chosen length", () => {
    const seconds = 1;
    const { left } = playWith(singleTone(1000), { ...NEUTRAL, fadeIn: seconds }, 1.5);
    const full = peak(left.subarray(60000, 72000));
    expect(full).toBeGreaterThan(0.01);
    expect(Math.abs(left[0])).toBeLessThan(full * 1e-6);
    // The envelope at several points: the largest |x| over one 1 kHz cycle around each.
    for (const p of [0.1, 0.25, 0.5, 0.75, 0.9]) {
      const at = Math.round(p * seconds * FS);
      const env = peak(left.subarray(at - 24, at + 24)) / full;
      expect(Math.abs(env - smoothstep(p)), `at ${p}`).toBeLessThan(0.01);
    }
    // Full level from the end of the fade on.
    expect(peak(left.subarray(FS * seconds, FS * seconds + 480)) / full).toBeGreaterThan(0.999);
  });

  it("product default (2 s) and the neutral 5 ms", () => {
    const slow = playWith(singleTone(1000), DEFAULT_LEVELS, 2.5).left;
    const full = peak(slow.subarray(2.2 * FS));
    expect(peak(slow.subarray(FS - 48, FS + 48)) / full).toBeCloseTo(0.5, 2);
    expect(peak(slow.subarray(0, 0.1 * FS)) / full).toBeLessThan(0.01);
    const quick = playWith(singleTone(1000), NEUTRAL, 0.1).left;
    expect(peak(quick.subarray(240, 480)) / full).toBeGreaterThan(0.999);
  });
});

describe("per-ear balance and output gain", () => {
  it("turns only the named ear down, by the chosen dB", () => {
    expect(balanceGains(6).left).toBeCloseTo(0.5012, 4);
    expect(balanceGains(6).right).toBe(1);
    expect(balanceGains(-3).right).toBeCloseTo(0.7079, 4);
    const s = defaultAudioState();
    const centre = playWith(s, NEUTRAL, 0.5);
    const left = playWith(s, { ...NEUTRAL, balance: 6 }, 0.5);
    expect(sameBits(left.right, centre.right)).toBe(true);
    expect(peak(left.left) / peak(centre.left)).toBeCloseTo(0.5012, 3);
    const right = playWith(s, { ...NEUTRAL, balance: -12 }, 0.5);
    expect(sameBits(right.left, centre.left)).toBe(true);
    expect(peak(right.right) / peak(centre.right)).toBeCloseTo(0.2512, 3);
  });

  it("changes glide instead of clicking", () => {
    const e = engineWith(singleTone(200));
    e.setLevels(NEUTRAL);
    e.start();
    const before = renderFrames(e, 4800, 128).left;
    e.setLevels({ ...NEUTRAL, balance: 12 });
    const after = renderFrames(e, 4800, 128);
    // A 200 Hz sine's largest step is about 0.026 of its peak; the change adds next to nothing.
    const x = new Float32Array([...before.slice(-256), ...after.left]);
    let step = 0;
    for (let i = 1; i < x.length; i++) step = Math.max(step, Math.abs(x[i] - x[i - 1]));
    const level = peak(after.right);
    expect(step).toBeLessThan(level * 0.03);
    expect(peak(after.left.subarray(2400)) / level).toBeCloseTo(0.2512, 3);
  });

  it("output gain scales the sound exactly and refuses nonsense", () => {
    const s = defaultAudioState();
    const one = playWith(s, NEUTRAL, 0.5);
    const two = playWith(s, NEUTRAL, 0.5, (e) => e.setOutputGain(2));
    for (let i = 0; i < one.left.length; i += 97) expect(two.left[i]).toBe(Math.fround(one.left[i] * 2));
    const e = engineWith(s);
    expect(() => e.setOutputGain(Number.NaN)).toThrow("Invalid output gain: NaN");
    expect(() => e.setOutputGain(-1)).toThrow("Invalid output gain: -1");
  });
});

describe("sleep timer", () => {
  it("fades and stops at the exact frame, landing on silence", () => {
    const e = engineWith(singleTone(1000));
    e.setLevels(NEUTRAL);
    e.start();
    const lead = renderFrames(e, FS, 128).left;
    const full = peak(lead.subarray(FS / 2));
    e.sleep(3, 2); // stops at 1 s + 3 s of sound; the fade begins at 2 s
    const { left } = renderFrames(e, 4 * FS, 128);
    expect(e.playing).toBe(false);
    expect(e.framesPlayed).toBe(4 * FS);
    const end = 3 * FS; // index of the stop in `left`
    // Full level until the fade begins, half way down at its middle, silent from the stop.
    expect(peak(left.subarray(FS - 480, FS)) / full).toBeGreaterThan(0.999);
    expect(peak(left.subarray(2 * FS - 24, 2 * FS + 24)) / full).toBeCloseTo(0.5, 2);
    expect(peak(left.subarray(end - 48, end)) / full).toBeLessThan(1e-5);
    expect(peak(left.subarray(end))).toBe(0);
    // The level only falls during the fade (envelope over 10 ms windows).
    let prev = Infinity;
    for (let at = FS; at < end; at += 480) {
      const env = peak(left.subarray(at, at + 480));
      expect(env).toBeLessThanOrEqual(prev + 1e-6);
      prev = env;
    }
  });

  it("a fade longer than the time left starts at once; the duration still ends sooner", () => {
    const e = engineWith(singleTone(1000));
    e.setLevels(NEUTRAL);
    e.start({ duration: 2 });
    const full = peak(renderFrames(e, FS / 2, 128).left.subarray(FS / 4));
    e.sleep(1, 30); // only 1 s left: the fade takes that second
    const { left } = renderFrames(e, 1.5 * FS, 128);
    expect(e.playing).toBe(false);
    expect(e.framesPlayed).toBe(1.5 * FS);
    expect(peak(left.subarray(FS / 2 - 24, FS / 2 + 24)) / full).toBeCloseTo(0.5, 2);
    expect(peak(left.subarray(FS))).toBe(0);

    const d = engineWith(singleTone(1000));
    d.setLevels(NEUTRAL);
    d.start({ duration: 1 });
    d.sleep(60, 30);
    renderFrames(d, 2 * FS, 128);
    expect(d.framesPlayed).toBe(FS);
  });

  it("cancelling during the fade brings the level back; stop() during it ends within 50 ms", () => {
    const e = engineWith(singleTone(1000));
    e.setLevels(NEUTRAL);
    e.start();
    const full = peak(renderFrames(e, FS / 2, 128).left.subarray(FS / 4));
    e.sleep(2, 2);
    const down = renderFrames(e, FS, 128).left;
    expect(peak(down.subarray(FS - 48)) / full).toBeCloseTo(0.5, 2);
    e.cancelSleep();
    renderFrames(e, FS / 10, 128);
    expect(peak(renderFrames(e, 4800, 128).left) / full).toBeGreaterThan(0.999);
    expect(e.playing).toBe(true);

    e.sleep(10, 10);
    renderFrames(e, FS, 128);
    e.stop();
    const tail = renderFrames(e, FS / 10, 128).left;
    expect(peak(tail.subarray(2400))).toBe(0);
    expect(e.playing).toBe(false);
  });

  it("refuses a sleep fade out of range", () => {
    const e = engineWith(singleTone(1000));
    expect(() => e.sleep(60, 601)).toThrow("Invalid sleep fade: 601 (0 to 600 s)");
    expect(() => e.sleep(Number.NaN, 30)).toThrow("Invalid sleep time: NaN");
  });
});
