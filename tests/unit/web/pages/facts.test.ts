// The numbers the static pages, the hero and the explanatory blocks quote (web/pages/facts.ts)
// follow the constants the engine, the export and the plans use, and read as the spec states them.

import { describe, expect, it } from "vitest";
import { FACTS, listText, num } from "../../../../web/pages/facts";

describe("static page facts", () => {
  it("quote the engine's limits and the export format", () => {
    expect(FACTS.maxFrequency).toBe("20,000 Hz");
    expect(FACTS.sampleRate).toBe("48,000 Hz");
    expect(FACTS.sampleRateKHz).toBe("48 kHz");
    expect(FACTS.nyquist).toBe("24,000 Hz");
    expect(FACTS.partialCeiling).toBe("21.6 kHz");
    expect(FACTS.wavFormat).toBe("stereo, 16-bit PCM");
    expect(FACTS.glideMs).toBe("5 ms");
    expect(FACTS.hourOfWavMB).toBe(690); // 48,000 frames x 4 bytes x 3,600 s = 691.2 MB
  });

  it("quote the durations, the demo and the effect count", () => {
    expect(FACTS.minDuration).toBe("30 seconds");
    expect(FACTS.maxDuration).toBe("1 hour");
    expect(FACTS.maxDurationUnlimited).toBe("12 hours");
    expect([FACTS.longExport, FACTS.longExportPlan]).toEqual(["12 hours", "Commercial License"]);
    expect(FACTS.exportsText).toBe("10 with the One Day Pass, 100 a month with Monthly Personal and 200 a month with the Commercial License");
    expect(FACTS.demoMinutes).toBe("10 minutes");
    expect(FACTS.demoEffects).toBe("Amplitude Mod, Ring Mod and Chorus");
    expect(FACTS.effectCount).toBeGreaterThanOrEqual(20); // marketing claims 20+ effects
    expect(FACTS.plans.oneDay.priceLabel).toBe("$4.44");
  });

  it("format numbers and lists for prose", () => {
    expect(num(7.83)).toBe("7.83");
    expect(num(43200)).toBe("43,200");
    expect(listText(["a"])).toBe("a");
    expect(listText(["a", "b"])).toBe("a and b");
    expect(listText(["a", "b", "c"])).toBe("a, b and c");
  });
});
