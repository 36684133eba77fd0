// Presets saved before the mixer (no version) load as loud as they played; today's keep their volumes.
import { describe, expect, it } from "vitest";
import { PRESET_VERSION, decodeConfig, encodeConfig, parsePreset, presetData } from "../../../../../dsp/host/schema/preset";
import { defaultEffects } from "../../../../../dsp/host/schema/state";

const channels = [
  { id: 1, frequency: 432, waveform: "sine", volume: 0.8, enabled: true },
  { id: 2, frequency: 528, waveform: "sine", volume: 0.3, enabled: true },
  { id: 3, frequency: 639, waveform: "sine", enabled: true },
  { id: 4, frequency: 741, waveform: "sine", volume: 1, enabled: true, muted: true, solo: false },
];

describe("preset volumes", () => {
  it("an older preset's volumes above 0.5 become 0.5, at 0:00 and in every step; lower ones stay", () => {
    const r = parsePreset({
      channels, effects: {}, duration: 60,
      timeline: { steps: [{ at: 0, ramp: "hold" }, { at: 10, ramp: "linear", channels: [{ id: 1, volume: 0.9 }, { id: 2, volume: 0.2 }] }] },
    });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.state.channels.map((c) => c.volume)).toEqual([0.5, 0.3, 0.5, 0.5]);
    expect(r.state.timeline!.steps[1].channels).toEqual([{ id: 1, volume: 0.5 }, { id: 2, volume: 0.2 }]);
    expect((r.state as { version?: number }).version).toBe(PRESET_VERSION);
  });

  it("a preset with today's version keeps its volumes, mute and solo", () => {
    const r = parsePreset({ channels, effects: {}, duration: 60, version: PRESET_VERSION });
    expect(r.ok && r.state.channels.map((c) => c.volume)).toEqual([0.8, 0.3, 0.5, 1]);
    expect(r.ok && r.state.channels[3]).toMatchObject({ muted: true });
    expect(r.ok && "solo" in r.state.channels[3]).toBe(false);
  });

  it("what the studio stores and shares carries the version, so it loads back as it is (twice too)", () => {
    const state = { channels: parsePreset({ channels, effects: {}, duration: 60, version: 2 }), effects: defaultEffects(), duration: 60 };
    if (!state.channels.ok) throw new Error("not a preset");
    const data = presetData({ channels: state.channels.state.channels, effects: state.effects, duration: 60 });
    expect((data as { version?: number }).version).toBe(PRESET_VERSION);
    const back = decodeConfig(encodeConfig(data));
    expect(back.ok && back.state.channels.map((c) => c.volume)).toEqual([0.8, 0.3, 0.5, 1]);
    const again = parsePreset(JSON.parse(JSON.stringify(back.ok && back.state)));
    expect(again.ok && again.state.channels.map((c) => c.volume)).toEqual([0.8, 0.3, 0.5, 1]);
  });

  it("an older version number is migrated too; a malformed preset is still an error", () => {
    const r = parsePreset({ channels, effects: {}, duration: 60, version: 1 });
    expect(r.ok && r.state.channels[0].volume).toBe(0.5);
    expect(parsePreset({ channels: "x", effects: {}, duration: 60 })).toEqual({ ok: false, error: "channels must be a list of channels" });
  });
});
