// Quantum mode's patterns (dsp/host/model/harmonic-patterns.ts, spec/studio.md sections 4, 5 and 7):
// golden = base × φ^n, fibonacci = base × F(n+2) (1, 2, 3, 5, 8, …), sacred = the just major
// scale continued by octaves; every value capped at 20000 Hz and rounded to 2 decimals; a base
// that is not a number becomes 432.

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  GOLDEN_RATIO, HARMONIC_COUNTS, HARMONIC_PATTERNS, harmonicFrequencies, patternRatio, sanitizeQuantumBase,
} from "../../../../../dsp/host/model/harmonic-patterns";

describe("harmonic patterns", () => {
  it("golden: base × φ^n with the spec's constant", () => {
    expect(GOLDEN_RATIO).toBe(1.618033988749);
    expect(harmonicFrequencies(432, "golden", 4)).toEqual([432, 698.99, 1130.99, 1829.98]);
    expect(harmonicFrequencies(100, "golden", 6)).toEqual([100, 161.8, 261.8, 423.61, 685.41, 1109.02]);
  });

  it("fibonacci: the base's harmonics at Fibonacci positions 1, 2, 3, 5, 8, 13, …", () => {
    expect(harmonicFrequencies(100, "fibonacci", 8)).toEqual([100, 200, 300, 500, 800, 1300, 2100, 3400]);
    // Neighbouring ratios approach φ.
    const r = patternRatio("fibonacci", 15) / patternRatio("fibonacci", 14);
    expect(Math.abs(r - GOLDEN_RATIO)).toBeLessThan(1e-5);
  });

  it("sacred: 1, 9/8, 5/4, 4/3, 3/2, 5/3, 15/8, then the next octave", () => {
    expect(harmonicFrequencies(432, "sacred", 8)).toEqual([432, 486, 540, 576, 648, 720, 810, 864]);
    expect(harmonicFrequencies(240, "sacred", 16).slice(7)).toEqual([480, 540, 600, 640, 720, 800, 900, 960, 1080]);
  });

  it("caps every value at 20000 Hz and rounds to 2 decimals", () => {
    expect(harmonicFrequencies(9000, "fibonacci", 4)).toEqual([9000, 18000, 20000, 20000]);
    expect(harmonicFrequencies(20000, "golden", 16).every((f) => f === 20000)).toBe(true);
    fc.assert(
      fc.property(
        fc.double({ min: 0, max: 20000, noNaN: true }),
        fc.constantFrom(...HARMONIC_PATTERNS),
        fc.constantFrom(...HARMONIC_COUNTS),
        (base, pattern, count) => {
          const f = harmonicFrequencies(base, pattern, count);
          expect(f).toHaveLength(count);
          for (const v of f) {
            expect(v).toBeGreaterThanOrEqual(0);
            expect(v).toBeLessThanOrEqual(20000);
            expect(Math.round(v * 100) / 100).toBe(v);
          }
          // Each pattern rises (or stays at the cap) and starts at the base.
          for (let i = 1; i < f.length; i++) expect(f[i]).toBeGreaterThanOrEqual(f[i - 1]);
          expect(f[0]).toBe(Math.round(base * 100) / 100);
        },
      ),
    );
  });

  it("the base input: not a number gives 432, digits and dots only, clamped, 2 decimals", () => {
    expect(sanitizeQuantumBase("")).toBe(432);
    expect(sanitizeQuantumBase("abc")).toBe(432);
    expect(sanitizeQuantumBase(Number.NaN)).toBe(432);
    expect(sanitizeQuantumBase("1a2b3.456")).toBe(123.46);
    expect(sanitizeQuantumBase("99999")).toBe(20000);
    expect(sanitizeQuantumBase(-5)).toBe(0);
  });
});
