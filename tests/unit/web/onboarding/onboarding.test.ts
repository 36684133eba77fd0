// The onboarding tutorial's rules (steps, Previous/Next/Complete, skip, restart, what is
// remembered per browser) and the hint bar's timing (5 s rotation, attention after 10 s).

import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  DISMISS_ATTENTION_MS, HINT_INTERVAL_MS, HintRotation, STUDIO_HINTS,
} from "../../../../web/onboarding/hints";
import {
  LAST_STEP, TUTORIAL_STEPS, TUTORIAL_STORAGE_KEY, loadTutorialState, nextLabel, saveTutorialState,
  tutorialAvailable, tutorialReducer, type TutorialState,
} from "../../../../web/onboarding/tutorial";

function memoryStorage(initial: Record<string, string> = {}) {
  const data = new Map(Object.entries(initial));
  return { getItem: (k: string) => data.get(k) ?? null, setItem: (k: string, v: string) => void data.set(k, v), data };
}

describe("tutorial", () => {
  it("has the spec's seven steps in order, each with a title and text", () => {
    expect(TUTORIAL_STEPS.map((s) => s.id)).toEqual(["welcome", "play", "frequency", "waveform", "effects", "export", "complete"]);
    for (const s of TUTORIAL_STEPS) expect(s.title.length > 0 && s.body.length > 40).toBe(true);
    expect(LAST_STEP).toBe(6);
  });

  it("Next walks to the last step, whose button reads Complete and closes it as completed", () => {
    let s: TutorialState = { status: "open", step: 0 };
    const labels: string[] = [];
    for (let i = 0; i < 7; i++) {
      labels.push(nextLabel(s.step));
      s = tutorialReducer(s, { type: "next" });
    }
    expect(labels).toEqual(["Next", "Next", "Next", "Next", "Next", "Next", "Complete"]);
    expect(s.status).toBe("completed");
    expect(tutorialReducer(s, { type: "next" })).toBe(s); // closed: nothing moves
  });

  it("Previous goes back and stops at the first step", () => {
    let s: TutorialState = { status: "open", step: 2 };
    s = tutorialReducer(s, { type: "previous" });
    expect(s.step).toBe(1);
    s = tutorialReducer(tutorialReducer(s, { type: "previous" }), { type: "previous" });
    expect(s).toEqual({ status: "open", step: 0 });
  });

  it("closing skips it; Restart opens it at the first step after a skip or a completion", () => {
    const skipped = tutorialReducer({ status: "open", step: 3 }, { type: "skip" });
    expect(skipped.status).toBe("skipped");
    expect(tutorialReducer(skipped, { type: "restart" })).toEqual({ status: "open", step: 0 });
    expect(tutorialReducer({ status: "completed", step: 0 }, { type: "restart" })).toEqual({ status: "open", step: 0 });
    expect(tutorialReducer({ status: "completed", step: 0 }, { type: "skip" }).status).toBe("completed");
  });

  it("remembers a skip or a completion per browser; a first visit (or an unfinished tour) opens it", () => {
    const store = memoryStorage();
    expect(loadTutorialState(store)).toEqual({ status: "open", step: 0 });
    saveTutorialState({ status: "open", step: 4 }, store);
    expect(store.data.size).toBe(0);
    saveTutorialState({ status: "skipped", step: 0 }, store);
    expect(store.data.get(TUTORIAL_STORAGE_KEY)).toBe("skipped");
    expect(loadTutorialState(store).status).toBe("skipped");
    saveTutorialState({ status: "completed", step: 0 }, store);
    expect(loadTutorialState(store).status).toBe("completed");
    expect(loadTutorialState(memoryStorage({ [TUTORIAL_STORAGE_KEY]: "junk" })).status).toBe("open");
    const broken = { getItem: () => { throw new Error("blocked"); }, setItem: () => { throw new Error("blocked"); } };
    expect(loadTutorialState(broken).status).toBe("open");
    expect(() => saveTutorialState({ status: "skipped", step: 0 }, broken)).not.toThrow();
    expect(loadTutorialState(null).status).toBe("open");
  });

  it("is offered to signed-in visitors only", () => {
    expect(["free", "demo", "full"].every(tutorialAvailable)).toBe(true);
    expect(tutorialAvailable("anonymous")).toBe(false);
    expect(tutorialAvailable("pending")).toBe(false);
  });
});

describe("hint rotation", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  function started() {
    const seen: number[] = [];
    let attention = 0;
    const r = new HintRotation(STUDIO_HINTS.length, { onIndex: (i) => seen.push(i), onAttention: () => attention++ });
    r.start();
    return { r, seen, attention: () => attention };
  }

  it("changes the hint every 5 s, wrapping at the end", () => {
    const { seen } = started();
    vi.advanceTimersByTime(HINT_INTERVAL_MS - 1);
    expect(seen).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(seen).toEqual([1]);
    vi.advanceTimersByTime(HINT_INTERVAL_MS * (STUDIO_HINTS.length - 1));
    expect(seen.at(-1)).toBe(0);
    expect(seen).toHaveLength(STUDIO_HINTS.length);
  });

  it("the dismiss button draws attention once, 10 s after the bar appeared, paused or not", () => {
    const { r, attention } = started();
    vi.advanceTimersByTime(3000);
    r.pause();
    vi.advanceTimersByTime(DISMISS_ATTENTION_MS - 3000 - 1);
    expect(attention()).toBe(0);
    vi.advanceTimersByTime(1);
    expect(attention()).toBe(1);
    vi.advanceTimersByTime(60_000);
    expect(attention()).toBe(1);
  });

  it("pauses while hovered or focused, then gives the message on screen a fresh 5 s", () => {
    const { r, seen } = started();
    vi.advanceTimersByTime(4000);
    r.pause();
    vi.advanceTimersByTime(20_000);
    expect(seen).toEqual([]);
    r.resume();
    vi.advanceTimersByTime(HINT_INTERVAL_MS - 1);
    expect(seen).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(seen).toEqual([1]);
  });

  it("leaves no timer behind once stopped", () => {
    const { r, seen, attention } = started();
    r.stop();
    r.resume();
    vi.advanceTimersByTime(60_000);
    expect(seen).toEqual([]);
    expect(attention()).toBe(0);
    expect(vi.getTimerCount()).toBe(0);
  });
});
