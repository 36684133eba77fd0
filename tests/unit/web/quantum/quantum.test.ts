// Quantum mode driving the studio store (web/quantum, spec/studio.md section 4): turning it on
// applies the first four computed frequencies; base/pattern/count recompute at once; a manual
// channel edit turns it off; sequential mode silences channels 2-4, plays one frequency at a
// time on channel 1, counts down only while playing, advances cyclically, Prev wraps; Instant
// mutes for 100 ms, Smooth glides in N steps over about 2 s.

import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { harmonicFrequencies } from "../../../../dsp/host/model/harmonic-patterns";
import { createStudioStore } from "../../../../web/state/studio-store";
import { QuantumController, smoothSteps } from "../../../../web/quantum/quantum-controller";
import { createQuantumStore, INSTANT_GAP_MS, SMOOTH_TRANSITION_MS } from "../../../../web/quantum/quantum-store";

function setup() {
  const studio = createStudioStore();
  const quantum = createQuantumStore();
  const controller = new QuantumController(studio, quantum);
  const freqs = () => studio.getState().channels.map((c) => c.frequency);
  const enabled = () => studio.getState().channels.map((c) => c.enabled);
  return { studio, quantum, controller, freqs, enabled };
}

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe("quantum mode", () => {
  it("turning it on applies the first four computed frequencies to the channels", () => {
    const { quantum, freqs, enabled, studio } = setup();
    studio.getState().setChannelOn(3, false);
    quantum.getState().setCount(8);
    expect(freqs()).toEqual([432, 528, 0, 741]); // off: nothing applied
    quantum.getState().setEnabled(true);
    expect(freqs()).toEqual(harmonicFrequencies(432, "golden", 4));
    expect(enabled()).toEqual([true, true, true, true]);
  });

  it("changing base, pattern or count recomputes at once", () => {
    const { quantum, freqs } = setup();
    quantum.getState().setEnabled(true);
    quantum.getState().setBase("100");
    expect(freqs()).toEqual([100, 161.8, 261.8, 423.61]);
    quantum.getState().setPattern("fibonacci");
    expect(freqs()).toEqual([100, 200, 300, 500]);
    quantum.getState().setBase("not a number");
    expect(freqs()).toEqual([432, 864, 1296, 2160]);
    quantum.getState().setPattern("sacred");
    quantum.getState().setCount(16);
    expect(freqs()).toEqual([432, 486, 540, 576]);
  });

  it("a manual channel edit turns quantum mode off and keeps the edit", () => {
    const { quantum, studio, freqs } = setup();
    quantum.getState().setEnabled(true);
    studio.getState().setFrequency(2, 300);
    expect(quantum.getState().enabled).toBe(false);
    expect(freqs()[1]).toBe(300);
    // Later changes of the settings no longer touch the channels.
    quantum.getState().setBase(100);
    expect(freqs()[1]).toBe(300);
  });

  it("switching a channel off by hand or loading a preset also turns it off; a waveform change does not", () => {
    const { quantum, studio } = setup();
    quantum.getState().setEnabled(true);
    studio.getState().setWaveform(1, "square");
    expect(quantum.getState().enabled).toBe(true);
    studio.getState().setChannelOn(4, false);
    expect(quantum.getState().enabled).toBe(false);
  });

  it("disposing (the override went away) turns it off", () => {
    const { quantum, controller } = setup();
    quantum.getState().setEnabled(true);
    controller.dispose();
    expect(quantum.getState().enabled).toBe(false);
  });
});

describe("sequential mode", () => {
  it("silences channels 2-4 and plays the first frequency on channel 1", () => {
    const { quantum, freqs, enabled } = setup();
    quantum.getState().setEnabled(true);
    quantum.getState().setSequential(true);
    expect(freqs()).toEqual([432, 0, 0, 0]);
    expect(enabled()).toEqual([true, false, false, false]);
    quantum.getState().setSequential(false);
    expect(freqs()).toEqual(harmonicFrequencies(432, "golden", 4));
  });

  it("counts down only while audio plays and advances cyclically through all `count` frequencies", () => {
    const { quantum, studio, freqs } = setup();
    const list = harmonicFrequencies(432, "sacred", 6);
    quantum.getState().setPattern("sacred");
    quantum.getState().setCount(6);
    quantum.getState().setStepSeconds(5);
    quantum.getState().setEnabled(true);
    quantum.getState().setSequential(true);
    vi.advanceTimersByTime(20_000);
    expect(quantum.getState().remaining).toBe(5); // stopped: no countdown
    studio.getState().setPlaying(true);
    vi.advanceTimersByTime(4000);
    expect(quantum.getState().remaining).toBe(1);
    expect(quantum.getState().index).toBe(0);
    vi.advanceTimersByTime(1000);
    expect(quantum.getState().index).toBe(1);
    expect(quantum.getState().remaining).toBe(5);
    vi.advanceTimersByTime(INSTANT_GAP_MS);
    expect(freqs()[0]).toBe(list[1]);
    // Five more steps wrap round to the first frequency.
    vi.advanceTimersByTime(5 * 5000 + INSTANT_GAP_MS);
    expect(quantum.getState().index).toBe(0);
    expect(freqs()[0]).toBe(list[0]);
    studio.getState().setPlaying(false);
    vi.advanceTimersByTime(3000);
    expect(quantum.getState().remaining).toBe(5);
  });

  it("Next and Prev move by hand; Prev wraps to the last and resets the countdown", () => {
    const { quantum, studio, freqs } = setup();
    const list = harmonicFrequencies(432, "golden", 8);
    quantum.getState().setCount(8);
    quantum.getState().setStepSeconds(10);
    quantum.getState().setEnabled(true);
    quantum.getState().setSequential(true);
    studio.getState().setPlaying(true);
    vi.advanceTimersByTime(3000);
    quantum.getState().step(-1);
    expect(quantum.getState().index).toBe(7);
    expect(quantum.getState().remaining).toBe(10);
    vi.advanceTimersByTime(INSTANT_GAP_MS);
    expect(freqs()[0]).toBe(list[7]);
    quantum.getState().step(1);
    vi.advanceTimersByTime(INSTANT_GAP_MS);
    expect(quantum.getState().index).toBe(0);
    expect(freqs()[0]).toBe(list[0]);
    expect(quantum.getState().enabled).toBe(true);
  });

  it("Instant: channel 1 is muted, and the next frequency sounds at full volume after 100 ms", () => {
    const { quantum, studio } = setup();
    quantum.getState().setEnabled(true);
    quantum.getState().setSequential(true);
    const ch1 = () => studio.getState().channels[0];
    quantum.getState().step(1);
    expect(ch1().volume).toBe(0);
    expect(ch1().frequency).toBe(432);
    vi.advanceTimersByTime(INSTANT_GAP_MS - 1);
    expect(ch1().volume).toBe(0);
    vi.advanceTimersByTime(1);
    expect(ch1().volume).toBe(0.5);
    expect(ch1().frequency).toBe(698.99);
  });

  it("Smooth: N steps over about 2 s, evenly spaced in pitch, ending on the target", () => {
    const { quantum, studio } = setup();
    quantum.getState().setTransition("smooth");
    quantum.getState().setSmoothSteps(4);
    quantum.getState().setPattern("fibonacci");
    quantum.getState().setEnabled(true);
    quantum.getState().setSequential(true);
    const seen: number[] = [];
    studio.subscribe((s) => seen.push(s.channels[0].frequency));
    quantum.getState().step(1); // 432 -> 864, an octave in 4 steps
    vi.advanceTimersByTime(SMOOTH_TRANSITION_MS);
    expect(seen).toEqual([513.74, 610.94, 726.53, 864]);
    expect(studio.getState().channels[0].volume).toBe(0.5);
    expect(smoothSteps(0, 100, 4)).toEqual([25, 50, 75, 100]);
  });

  it("a manual edit during a smooth glide stops it and turns quantum off", () => {
    const { quantum, studio } = setup();
    quantum.getState().setTransition("smooth");
    quantum.getState().setEnabled(true);
    quantum.getState().setSequential(true);
    quantum.getState().step(1);
    vi.advanceTimersByTime(500);
    studio.getState().setFrequency(1, 250);
    vi.advanceTimersByTime(SMOOTH_TRANSITION_MS);
    expect(quantum.getState().enabled).toBe(false);
    expect(studio.getState().channels[0].frequency).toBe(250);
  });

  it("smooth step counts are clamped to 2..50 (default 10)", () => {
    const { quantum } = setup();
    expect(quantum.getState().smoothSteps).toBe(10);
    quantum.getState().setSmoothSteps(1);
    expect(quantum.getState().smoothSteps).toBe(2);
    quantum.getState().setSmoothSteps(500);
    expect(quantum.getState().smoothSteps).toBe(50);
    quantum.getState().setSmoothSteps(Number.NaN);
    expect(quantum.getState().smoothSteps).toBe(10);
  });
});
