// The displays' frame gate (web/studio/use-animation-loop.ts): how many frames a throttled rAF
// loop draws per second on common display refresh rates.

import { describe, expect, it } from "vitest";
import { createFrameGate } from "../../../web/studio/use-animation-loop";

/** Frames drawn in `seconds` of a rAF clock at `hz` (with optional timestamp jitter). */
function drawnPerSecond(gapMs: number, hz: number, seconds = 10, jitter = 0): number {
  const gate = createFrameGate(gapMs);
  let drawn = 0;
  const frames = Math.round(seconds * hz);
  for (let i = 0; i < frames; i++) {
    const wobble = jitter ? Math.sin(i * 12.9898) * jitter : 0;
    if (gate.ready((i * 1000) / hz + wobble)) drawn++;
  }
  return drawn / seconds;
}

describe("frame gate", () => {
  it("draws the first frame at once", () => {
    const gate = createFrameGate(30);
    expect(gate.ready(1234)).toBe(true);
    expect(gate.ready(1240)).toBe(false);
  });

  it("holds the average rate of the gap, not just every other frame", () => {
    expect(drawnPerSecond(20, 60)).toBeCloseTo(50, 0); // 20 ms on 60 Hz: 50 fps, not 30
    expect(drawnPerSecond(30, 60)).toBeCloseTo(33, 0);
    expect(drawnPerSecond(33, 60)).toBeCloseTo(30, 0);
    expect(drawnPerSecond(50, 60)).toBeCloseTo(20, 0);
    expect(drawnPerSecond(1000 / 24, 60)).toBeCloseTo(24, 0); // the performance profile's 24 fps
    expect(drawnPerSecond(30, 120)).toBeCloseTo(33, 0);
    expect(drawnPerSecond(50, 144)).toBeCloseTo(20, 0);
  });

  it("never draws faster than the display refreshes, and tolerates jittery timestamps", () => {
    expect(drawnPerSecond(5, 60)).toBeCloseTo(60, 0);
    expect(drawnPerSecond(1000 / 60, 60, 10, 1)).toBeGreaterThan(55);
    expect(drawnPerSecond(30, 60, 10, 2)).toBeCloseTo(33, 0);
  });

  it("restarts its schedule after a pause instead of drawing a burst", () => {
    const gate = createFrameGate(30);
    expect(gate.ready(0)).toBe(true);
    expect(gate.ready(5000)).toBe(true); // back from a hidden tab
    expect(gate.ready(5016)).toBe(false);
    expect(gate.ready(5033)).toBe(true);
  });

  it("reset() makes the next frame draw at once", () => {
    const gate = createFrameGate(50);
    expect(gate.ready(100)).toBe(true);
    gate.reset();
    expect(gate.ready(101)).toBe(true);
  });
});
