// dsp/host/model/catalogue.ts: the defaults, ranges, extras and display units spec/studio.md section 3
// gives are the ones the catalogue serves, and extrasToArgs turns extras into engine arguments.

import { describe, expect, it } from "vitest";
import { EFFECTS, effectDef, extrasToArgs } from "../../../../../dsp/host/model/catalogue";

/** Section 3's table: default, then min and max where a range is given. */
const SPEC_TABLE: Record<string, [number, number?, number?]> = {
  ringMod: [65, 0, 100], amplitudeMod: [5, 0.1, 20], chorus: [30, 0, 100], supersaw: [50, -100, 100],
  pan360: [2, 0.1, 20], isoPulses: [6, 0.1, 12], tremolo: [4, 0.1, 20], noise: [20, 0, 100], phaser: [2, 0.1, 10],
  shepard: [1, 0.1, 5], flanger: [0.5, 0.1, 10], pingPong: [0.25, 0.05, 2], darkAmbientGranulator: [50, 0, 100],
  filterEnvelope: [2, 0.1, 10], gate: [4, 0.5, 16], frequencyShifter: [50, -500, 500], harmonicExciter: [50],
  combFilter: [5, 0.1, 20], harmonizer: [50, 0, 100], acidFilter: [1.5, 0.1, 20],
};

/** Section 3's display units (and the table's units for combFilter and frequencyShifter). */
const SPEC_UNITS: Record<string, string> = {
  filterSweep: "kHz", amplitudeMod: "Hz", tremolo: "Hz", isoPulses: "Hz", phaser: "Hz", binaural: "Hz", pan360: "Hz",
  shepard: "Hz", glitch: "Hz", filterEnvelope: "Hz", frequencyShifter: "Hz", ringMod: "%", chorus: "%", reverb: "%",
  noise: "%", vocoder: "%", stereoWidth: "%", pingPong: "s", granular: "ms", combFilter: "ms", bitcrusher: "-bit",
};

describe("catalogue", () => {
  it.each(Object.entries(SPEC_TABLE))("%s has the spec's default and range", (id, [def, min, max]) => {
    const d = effectDef(id)!;
    expect(d.default).toBe(def);
    if (min !== undefined) expect([d.min, d.max]).toEqual([min, max]);
  });

  it("shows the spec's display units", () => {
    for (const [id, unit] of Object.entries(SPEC_UNITS)) expect(effectDef(id)?.unit, id).toBe(unit);
  });

  it("gives noise, shepard and ping pong the spec's extras", () => {
    const extras = (id: string) => Object.fromEntries(effectDef(id)!.extras.map((x) => [x.key, x.kind === "enum" ? [x.default, ...x.options] : x.default]));
    expect(effectDef("noise")?.step).toBe(5);
    expect(extras("noise")).toMatchObject({ type: ["white", "white", "pink", "brown"], color: 0, density: 50 });
    expect(extras("shepard")).toEqual({ direction: ["up", "up", "down"], octaves: 5 });
    expect(extras("pingPong")).toEqual({ feedback: 0.4, mix: 0.5 });
  });

  it("keeps every default inside its range and on its step", () => {
    for (const d of EFFECTS) {
      expect(d.min, d.id).toBeLessThan(d.max);
      expect(d.default, d.id).toBeGreaterThanOrEqual(d.min);
      expect(d.default, d.id).toBeLessThanOrEqual(d.max);
      const steps = (d.default - d.min) / d.step;
      expect(Math.abs(steps - Math.round(steps)), d.id).toBeLessThan(1e-9);
    }
  });
});

describe("extrasToArgs", () => {
  const noise = effectDef("noise")!;
  it("passes enums as the option's index and numbers as they are, in catalogue order", () => {
    expect(extrasToArgs(noise, { type: "brown", color: -40, density: 75 })).toEqual([2, -40, 75]);
  });

  it("uses the defaults for missing, unknown or non-finite extras and clamps numbers to their range", () => {
    expect(extrasToArgs(noise, {})).toEqual([0, 0, 50]);
    expect(extrasToArgs(noise, { type: "purple", color: Number.NaN, density: "50" })).toEqual([0, 0, 50]);
    expect(extrasToArgs(noise, { color: 500, density: -1 })).toEqual([0, 100, 0]);
  });

  it("is all zeros for an effect without extras", () => {
    expect(extrasToArgs(effectDef("reverb")!, { feedback: 0.9 })).toEqual([0, 0, 0]);
  });
});
