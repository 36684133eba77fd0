// The effects grid's filter: every catalogue effect has exactly one kind; the search reads names
// and descriptions.
import { describe, expect, it } from "vitest";
import { EFFECTS } from "../../../../dsp/host/model/catalogue";
import { EFFECT_KINDS, kindOf, matchesSearch } from "../../../../web/effects/effect-kinds";

describe("effect kinds", () => {
  it("puts every effect of the catalogue in exactly one kind, and lists nothing else", () => {
    const listed = EFFECT_KINDS.flatMap((k) => [...k.effects]);
    expect(new Set(listed).size).toBe(listed.length);
    expect([...listed].sort()).toEqual(EFFECTS.map((d) => d.id).sort());
    for (const d of EFFECTS) expect(kindOf(d.id)).toBeDefined();
    expect(kindOf("nope")).toBeUndefined();
  });

  it("has the five kinds: brainwave, modulation, space, texture, filters and dynamics", () => {
    expect(EFFECT_KINDS.map((k) => k.label)).toEqual(["Brainwave", "Modulation", "Space", "Texture", "Filters & dynamics"]);
    expect(kindOf("binaural")).toBe("brainwave");
    expect(kindOf("reverb")).toBe("space");
  });

  it("searches names and descriptions, case-insensitively; an empty search matches all", () => {
    const reverb = EFFECTS.find((d) => d.id === "reverb")!;
    expect(matchesSearch(reverb, "REV")).toBe(true);
    expect(matchesSearch(reverb, "decay")).toBe(true);
    expect(matchesSearch(reverb, "  ")).toBe(true);
    expect(matchesSearch(reverb, "bitcrush")).toBe(false);
  });
});
