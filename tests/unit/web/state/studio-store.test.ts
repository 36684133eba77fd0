// Channel rules of spec/studio.md sections 4 and 5, on the studio store (duration: duration.test.ts).

import { describe, expect, it } from "vitest";
import { createStudioStore, sanitizeFrequency } from "../../../../web/state/studio-store";
import { audioStateSchema, defaultAudioState, restoreSilentChannels } from "../../../../dsp/host/schema/state";

describe("frequency input", () => {
  it.each([
    ["432", 432],
    ["4a3b2", 432],
    ["1e3", 13],
    ["-50", 50],
    ["abc", 0],
    ["", 0],
    ["25000", 20000],
    ["123.456", 123.46],
    ["7.835", 7.84],
    ["0.001", 0],
  ])("%j becomes %d", (text, want) => {
    expect(sanitizeFrequency(text)).toBe(want);
  });
});

describe("channel switch", () => {
  it("off sets 0 Hz; on restores the last typed value, or 432", () => {
    const store = createStudioStore();
    const s = () => store.getState();
    s().setFrequency(2, 111.5);
    s().setChannelOn(2, false);
    expect(s().channels[1]).toMatchObject({ enabled: false, frequency: 0 });
    s().setChannelOn(2, true);
    expect(s().channels[1]).toMatchObject({ enabled: true, frequency: 111.5 });
    s().setChannelOn(3, false);
    s().setChannelOn(3, true);
    expect(s().channels[2].frequency).toBe(432);
  });

  it("start restores enabled channels at 0 Hz to their defaults", () => {
    const s = defaultAudioState();
    s.channels[0].frequency = 0;
    s.channels[1] = { ...s.channels[1], enabled: false, frequency: 0 };
    const restored = restoreSilentChannels(s.channels);
    expect(restored[0].frequency).toBe(432);
    expect(restored[1].frequency).toBe(0);
  });

  it("unknown effect ids are ignored", () => {
    const store = createStudioStore();
    const before = store.getState().effects;
    store.getState().setEffect("nope", { enabled: true });
    expect(store.getState().effects).toBe(before);
  });
});

describe("AudioState schema", () => {
  it("accepts the default state and rejects broken ones", () => {
    expect(audioStateSchema.safeParse(defaultAudioState()).success).toBe(true);
    const bad = defaultAudioState() as unknown as Record<string, unknown>;
    delete bad.channels;
    expect(audioStateSchema.safeParse(bad).success).toBe(false);
    const wrong = defaultAudioState();
    wrong.channels[0].frequency = 30000;
    expect(audioStateSchema.safeParse(wrong).success).toBe(false);
  });
});
