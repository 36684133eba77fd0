// Quantum mode's "Mathematical harmonics" (spec/studio.md sections 4 and 5): a base frequency, a
// pattern and a count give a list of frequencies, each capped at 20000 Hz and rounded to 2
// decimals. The patterns, defined here once for the studio, the tests and the docs:
//
//   golden     f(n) = base × φ^n                       φ = 1.618033988749 (the spec's constant)
//              432 → 432, 698.99, 1130.99, 1829.98, … each step a golden-ratio interval
//   fibonacci  f(n) = base × F(n+2)                     F = 1, 1, 2, 3, 5, 8, 13, … (F(1) = F(2) = 1)
//              432 → 432, 864, 1296, 2160, 3456, …      the harmonics of the base at Fibonacci
//              positions (1, 2, 3, 5, 8, 13, …), so every tone is a true harmonic of the base;
//              the ratio of neighbours F(n+1)/F(n) tends to φ, which is what links it to golden.
//   sacred     f(n) = base × R[n mod 7] × 2^⌊n/7⌋     R = 1, 9/8, 5/4, 4/3, 3/2, 5/3, 15/8
//              432 → 432, 486, 540, 576, 648, 720, 810, 864, …
//              the just-intonation (Ptolemaic) major scale, the small-whole-number ratios of the
//              Pythagorean tradition that "sacred geometry" tuning refers to, continued by octaves.
//
// n runs from 0 to count-1, so every pattern starts at the base itself. A base that is not a
// number becomes 432 (spec 5); the base is clamped to 0..20000 like any frequency input.

import { MAX_FREQUENCY_HZ } from "./limits";

export const HARMONIC_PATTERNS = ["golden", "fibonacci", "sacred"] as const;
export type HarmonicPattern = (typeof HARMONIC_PATTERNS)[number];

export const HARMONIC_COUNTS = [4, 6, 8, 12, 16] as const;
export type HarmonicCount = (typeof HARMONIC_COUNTS)[number];

export const PATTERN_LABELS: Record<HarmonicPattern, string> = {
  golden: "Golden ratio (φ^n)",
  fibonacci: "Fibonacci harmonics",
  sacred: "Sacred (just intonation)",
};

/** The spec's golden-ratio constant (spec/studio.md section 7). */
export const GOLDEN_RATIO = 1.618033988749;
export const DEFAULT_QUANTUM_BASE = 432;

const JUST_RATIOS = [1, 9 / 8, 5 / 4, 4 / 3, 3 / 2, 5 / 3, 15 / 8] as const;

const round2 = (v: number): number => Math.round(v * 100) / 100;

/** The quantum base input rule (spec 5): digits and dots only, not-a-number gives 432,
 *  clamped to 0-20000, 2 decimals. */
export function sanitizeQuantumBase(input: string | number): number {
  const v = typeof input === "number" ? input : Number.parseFloat(input.replace(/[^0-9.]/g, ""));
  if (!Number.isFinite(v)) return DEFAULT_QUANTUM_BASE;
  return round2(Math.min(MAX_FREQUENCY_HZ, Math.max(0, v)));
}

/** The n-th multiplier of a pattern (n >= 0). */
export function patternRatio(pattern: HarmonicPattern, n: number): number {
  switch (pattern) {
    case "golden":
      return GOLDEN_RATIO ** n;
    case "fibonacci": {
      let a = 1; // F(n+1)
      let b = 1; // F(n+2)
      for (let i = 0; i < n; i++) [a, b] = [b, a + b];
      return b;
    }
    case "sacred":
      return JUST_RATIOS[n % JUST_RATIOS.length] * 2 ** Math.floor(n / JUST_RATIOS.length);
  }
}

/** `count` frequencies of `pattern` from `base`, each capped at 20000 Hz and rounded to 2 decimals. */
export function harmonicFrequencies(base: number, pattern: HarmonicPattern, count: number): number[] {
  const b = sanitizeQuantumBase(base);
  return Array.from({ length: count }, (_, n) => round2(Math.min(MAX_FREQUENCY_HZ, b * patternRatio(pattern, n))));
}
