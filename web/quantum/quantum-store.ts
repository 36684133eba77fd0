// Quantum mode's settings and its sequence position (spec/studio.md sections 4 and 5), as a
// vanilla zustand store. Only settings live here; web/quantum/quantum-controller.ts turns them into
// channel frequencies in the studio store and runs the sequential countdown.
//
// Sequential mode cycles through all `count` computed frequencies, one at a time on channel 1
// (channels 2-4 silent): a count of 16 is a 16-step sequence. In simultaneous mode the first four
// computed frequencies drive channels 1-4.

import { createStore } from "zustand/vanilla";
import {
  DEFAULT_QUANTUM_BASE, harmonicFrequencies, sanitizeQuantumBase,
  type HarmonicCount, type HarmonicPattern,
} from "../../dsp/host/model/harmonic-patterns";

export const SEQUENTIAL_DURATIONS = [1, 5, 10, 15, 30, 60, 120, 300] as const;
export type SequentialDuration = (typeof SEQUENTIAL_DURATIONS)[number];
export type Transition = "instant" | "smooth";

/** Instant: silence, then the next frequency after this long. */
export const INSTANT_GAP_MS = 100;
/** Smooth: the glide to the next frequency takes about this long, in `smoothSteps` steps. */
export const SMOOTH_TRANSITION_MS = 2000;
export const DEFAULT_SMOOTH_STEPS = 10;
export const MIN_SMOOTH_STEPS = 2;
export const MAX_SMOOTH_STEPS = 50;

export interface QuantumState {
  enabled: boolean;
  base: number;
  pattern: HarmonicPattern;
  count: HarmonicCount;
  sequential: boolean;
  stepSeconds: SequentialDuration;
  transition: Transition;
  smoothSteps: number;
  /** The frequency now playing in sequential mode (0..count-1). */
  index: number;
  /** Seconds left before the sequence advances (counts down only while audio plays). */
  remaining: number;
}

export interface QuantumActions {
  setEnabled(on: boolean): void;
  setBase(input: string | number): void;
  setPattern(pattern: HarmonicPattern): void;
  setCount(count: HarmonicCount): void;
  setSequential(on: boolean): void;
  setStepSeconds(seconds: SequentialDuration): void;
  setTransition(transition: Transition): void;
  setSmoothSteps(steps: number): void;
  /** Move to the next (+1) or previous (-1) frequency, wrapping at both ends; resets the countdown. */
  step(direction: 1 | -1): void;
  /** One second of playback: counts down and advances (cyclically) at zero. */
  tick(): void;
}

export type QuantumStore = QuantumState & QuantumActions;

export function initialQuantumState(): QuantumState {
  return {
    enabled: false,
    base: DEFAULT_QUANTUM_BASE,
    pattern: "golden",
    count: 4,
    sequential: false,
    stepSeconds: 10,
    transition: "instant",
    smoothSteps: DEFAULT_SMOOTH_STEPS,
    index: 0,
    remaining: 10,
  };
}

/** The frequencies the current settings produce. */
export const quantumFrequencies = (s: Pick<QuantumState, "base" | "pattern" | "count">): number[] =>
  harmonicFrequencies(s.base, s.pattern, s.count);

const wrap = (i: number, n: number): number => ((i % n) + n) % n;

export function createQuantumStore(initial: QuantumState = initialQuantumState()) {
  return createStore<QuantumStore>()((set, get) => ({
    ...initial,
    setEnabled: (enabled) => set(enabled ? { enabled } : { enabled, sequential: false }),
    setBase: (input) => set({ base: sanitizeQuantumBase(input) }),
    setPattern: (pattern) => set({ pattern }),
    setCount: (count) => set({ count, index: wrap(get().index, count) }),
    setSequential: (sequential) => set({ sequential, index: 0, remaining: get().stepSeconds }),
    setStepSeconds: (stepSeconds) => set({ stepSeconds, remaining: stepSeconds }),
    setTransition: (transition) => set({ transition }),
    setSmoothSteps: (steps) => {
      const n = Math.round(Number.isFinite(steps) ? steps : DEFAULT_SMOOTH_STEPS);
      set({ smoothSteps: Math.min(MAX_SMOOTH_STEPS, Math.max(MIN_SMOOTH_STEPS, n)) });
    },
    step: (direction) => set({ index: wrap(get().index + direction, get().count), remaining: get().stepSeconds }),
    tick: () => {
      const s = get();
      if (s.remaining > 1) set({ remaining: s.remaining - 1 });
      else set({ index: wrap(s.index + 1, s.count), remaining: s.stepSeconds });
    },
  }));
}
