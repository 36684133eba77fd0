// The screen-reader announcer (cleared after 1 s, repeats re-announced) and the reduced-motion
// frame gap of the displays.

import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ANNOUNCEMENT_CLEAR_MS, createAnnouncer } from "../../../../web/a11y/announcer";
import { REDUCED_MOTION_FRAME_GAP_MS, motionFrameGapMs, prefersReducedMotion } from "../../../../web/a11y/reduced-motion";

describe("announcer", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("shows a message and clears it after 1 s", () => {
    const a = createAnnouncer();
    a.announce("Playback started");
    expect(a.state.getState().message).toBe("Playback started");
    vi.advanceTimersByTime(ANNOUNCEMENT_CLEAR_MS - 1);
    expect(a.state.getState().message).toBe("Playback started");
    vi.advanceTimersByTime(1);
    expect(a.state.getState().message).toBe("");
  });

  it("a newer message replaces the old one and gets its own full second", () => {
    const a = createAnnouncer();
    a.announce("Playback started");
    vi.advanceTimersByTime(900);
    a.announce("Playback stopped");
    vi.advanceTimersByTime(900);
    expect(a.state.getState().message).toBe("Playback stopped");
    vi.advanceTimersByTime(100);
    expect(a.state.getState().message).toBe("");
  });

  it("repeating the message on screen empties the region first, so it is announced again", () => {
    const a = createAnnouncer();
    a.announce("Export cancelled");
    a.announce("Export cancelled");
    expect(a.state.getState().message).toBe("");
    vi.advanceTimersByTime(100);
    expect(a.state.getState().message).toBe("Export cancelled");
    vi.advanceTimersByTime(ANNOUNCEMENT_CLEAR_MS);
    expect(a.state.getState().message).toBe("");
  });

  it("ignores empty messages", () => {
    const a = createAnnouncer();
    a.announce("   ");
    expect(a.state.getState().message).toBe("");
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe("reduced motion", () => {
  it("slows every display to one frame a second, and leaves them alone otherwise", () => {
    expect(motionFrameGapMs(30, false)).toBe(30);
    expect(motionFrameGapMs(30, true)).toBe(REDUCED_MOTION_FRAME_GAP_MS);
    expect(motionFrameGapMs(5000, true)).toBe(5000);
  });

  it("outside a browser nothing asks for reduced motion", () => {
    expect(prefersReducedMotion()).toBe(false);
  });
});
