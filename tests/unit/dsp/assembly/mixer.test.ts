// The mixer in the engine: every volume step is heard (linear amplitude, 0.5 nominal), mute and
// solo silence a channel without changing the others' level, in a plain state and on a timeline.
import { describe, expect, it } from "vitest";
import { defaultAudioState, type AudioState } from "../../../../dsp/host/schema/state";
import { FS, engineWith, levelAt, magnitude, play, renderFrames, rms } from "./helpers";

const db = (x: number) => 20 * Math.log10(x);

function withVolume(volume: number, extra: Partial<AudioState> = {}): AudioState {
  const s = defaultAudioState();
  s.channels = s.channels.map((c, i) => (i === 0 ? { ...c, frequency: 1000, volume } : { ...c, enabled: false }));
  return { ...s, ...extra };
}

/** RMS of the output from 0.25 s to 0.5 s, the master compressor off (it narrows level steps). */
function level(s: AudioState): number {
  const e = engineWith(s);
  e.setCompressor(false);
  e.start({ delay: 0 });
  return rms(renderFrames(e, FS / 2).left, FS / 4);
}

/** Channel 1's (432 Hz) spectral level in the studio's default four channels, compressor on. */
function inMix(volume: number): number {
  const s = defaultAudioState();
  s.channels[0] = { ...s.channels[0], volume };
  const mag = magnitude(play(s, 1).left.subarray(FS / 2), 16384);
  return levelAt(mag, 432, FS, 16384);
}

describe("mixer in the engine", () => {
  it("50 % -> 25 % is -6 dB and 50 % -> 100 % is +6 dB (before, 100 % was as loud as 50 %)", () => {
    const half = level(withVolume(0.5));
    expect(db(level(withVolume(0.25)) / half)).toBeCloseTo(-6.02, 1);
    expect(db(level(withVolume(1)) / half)).toBeCloseTo(6.02, 1);
    expect(db(level(withVolume(0.75)) / half)).toBeCloseTo(3.52, 1);
  });

  it("with the master compressor, as the studio plays: in the default four channels 50 % -> 25 % is -6 dB within 0.5 dB", () => {
    // The compressor (threshold -24 dB, knee 30 dB, ratio 12) gives back a little of the drop:
    // measured -5.57 dB; one channel alone would show -2.8 dB.
    const change = db(inMix(0.25) / inMix(0.5));
    expect(Math.abs(change + 6.02)).toBeLessThan(0.5);
  });

  it("mute silences a channel and leaves the others as loud; solo leaves only the soloed one", () => {
    const s = defaultAudioState();
    const spectrum = (st: AudioState) => {
      const x = play(st, 0.5).left.subarray(FS / 4);
      const size = 8192;
      const mag = magnitude(x, size);
      return (f: number) => levelAt(mag, f, FS, size);
    };
    const all = spectrum(s);
    const muted = spectrum({ ...s, channels: s.channels.map((c) => (c.id === 2 ? { ...c, muted: true } : c)) });
    // -40 dB: what is left is the compressor's modulation of the other tones, not the channel.
    expect(muted(528)).toBeLessThan(all(528) * 1e-2);
    expect(Math.abs(db(muted(432) / all(432)))).toBeLessThan(1);
    const solo = spectrum({ ...s, channels: s.channels.map((c) => (c.id === 3 ? { ...c, solo: true } : c)) });
    for (const f of [432, 528, 741]) expect(solo(f)).toBeLessThan(all(f) * 1e-2);
    expect(solo(639)).toBeGreaterThan(all(639) * 0.5);
  });

  it("on a timeline, mute and solo of the state at 0:00 hold for the whole session", () => {
    const s = withVolume(0.5);
    s.channels[1] = { ...s.channels[1], enabled: true, frequency: 2000, solo: true };
    s.timeline = { steps: [{ at: 0, ramp: "hold" }, { at: 0.1, ramp: "hold", channels: [{ id: 1, frequency: 1500 }] }] };
    const x = play(s, 0.5).left.subarray(FS / 4);
    const mag = magnitude(x, 8192);
    expect(levelAt(mag, 1500, FS, 8192)).toBeLessThan(levelAt(mag, 2000, FS, 8192) * 1e-3);
  });
});
