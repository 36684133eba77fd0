// The landing section's demo cards (web/demo-cards/presets.ts): each is a valid AudioState with
// the spec's tone and effects from the spec's list, and sounds through the engine.

import { describe, expect, it } from "vitest";
import { effectDef } from "../../../../dsp/host/model/catalogue";
import { audioStateSchema } from "../../../../dsp/host/schema/state";
import { DEMO_CARDS, DEMO_CARDS_BY_ID } from "../../../../web/demo-cards/presets";
import { FS, allFinite, levelAt, magnitude, peak, play, rms } from "../../dsp/assembly/helpers";

/** The effects spec/studio.md section 2 lists for the demo presets ('whiteNoise' is the noise effect, type white). */
const SPEC_EFFECTS = new Set(["tremolo", "stereoPan", "phaser", "amplitudeMod", "pan360", "isoPulses", "noise", "chorus", "ringMod", "flanger", "harmonizer", "shepard"]);

const db = (x: number) => 20 * Math.log10(Math.max(x, 1e-12));

describe("demo card presets", () => {
  it("are the spec's four cards with their tones", () => {
    expect(DEMO_CARDS.map((c) => [c.title, c.frequency, c.waveform])).toEqual([
      ["Gamma Focus", 40, "square"],
      ["Theta Meditation", 6, "square"],
      ["Schumann Resonance", 7.83, "sawtooth"],
      ["Solfeggio 852 + 417 + 528", 852, "sine"],
    ]);
    const solfeggio = DEMO_CARDS_BY_ID.get("solfeggio")!;
    expect(solfeggio.state.channels.filter((c) => c.enabled).map((c) => [c.frequency, c.waveform])).toEqual([[852, "sine"], [417, "sine"], [528, "sine"]]);
    for (const card of DEMO_CARDS) {
      expect(card.description.length).toBeGreaterThan(20);
      expect(["bolt", "lotus", "globe", "bell"]).toContain(card.icon);
      expect(card.state.channels[0]).toMatchObject({ frequency: card.frequency, waveform: card.waveform, enabled: true });
    }
  });

  it.each(DEMO_CARDS.map((c) => [c.title, c] as const))("%s is a valid AudioState with in-range effects from the spec's list", (_title, card) => {
    expect(audioStateSchema.safeParse(card.state).success).toBe(true);
    const on = Object.entries(card.state.effects).filter(([, fx]) => fx.enabled);
    expect(on.length).toBeGreaterThanOrEqual(2);
    for (const [id, fx] of on) {
      expect(SPEC_EFFECTS.has(id), id).toBe(true);
      const def = effectDef(id)!;
      expect(fx.value).toBeGreaterThanOrEqual(def.min);
      expect(fx.value).toBeLessThanOrEqual(def.max);
      for (const x of def.extras) {
        const v = fx[x.key];
        if (x.kind === "enum") expect(x.options).toContain(v);
        else {
          expect(v).toBeGreaterThanOrEqual(x.min);
          expect(v).toBeLessThanOrEqual(x.max);
        }
      }
    }
    // Every other effect is off: a card is only what it says.
    expect(Object.keys(card.state.effects).length).toBe(30);
  });

  it.each(DEMO_CARDS.map((c) => [c.title, c] as const))("%s sounds through the engine: audible, finite, below full scale", (_title, card) => {
    const { left, right } = play(card.state, 2);
    expect(allFinite(left) && allFinite(right)).toBe(true);
    expect(Math.max(peak(left), peak(right))).toBeLessThan(1);
    expect(db(rms(left, FS / 2))).toBeGreaterThan(-45);
  });

  it("between them the cards use every effect of the spec's list (stereoPan and amplitudeMod too)", () => {
    const used = new Set(DEMO_CARDS.flatMap((c) => Object.entries(c.state.effects).filter(([, fx]) => fx.enabled).map(([id]) => id)));
    expect([...SPEC_EFFECTS].filter((id) => !used.has(id))).toEqual([]);
  });

  it("Theta Meditation swells at 6 Hz; Solfeggio sits right of centre", () => {
    const theta = play(DEMO_CARDS_BY_ID.get("theta-meditation")!.state, 2).left;
    const block = FS / 60; // 60 levels a second: a 6 Hz swell is 10 blocks
    const levels = Array.from({ length: Math.floor(theta.length / block) - 1 }, (_, i) => rms(theta.subarray((i + 1) * block, (i + 2) * block)));
    expect(db(Math.max(...levels)) - db(Math.min(...levels))).toBeGreaterThan(10);
    const { left, right } = play(DEMO_CARDS_BY_ID.get("solfeggio")!.state, 1.5);
    expect(rms(right, FS / 2)).toBeGreaterThan(rms(left, FS / 2) * 1.1);
  });

  it("Solfeggio's three tones are all heard", () => {
    const { left } = play(DEMO_CARDS_BY_ID.get("solfeggio")!.state, 1.5);
    const size = 32768;
    const mag = magnitude(left, size, FS / 4, size);
    const floor = levelAt(mag, 700, FS, size);
    for (const hz of [417, 528, 852]) expect(db(levelAt(mag, hz, FS, size)) - db(floor)).toBeGreaterThan(30);
  });
});
