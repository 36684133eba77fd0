// The listener's levels store (web/levels/levels-store.ts) and the sleep timer's logic
// (web/levels/sleep-timer.ts): stored values survive a reload and bad ones fall back to the
// defaults; the timer is armed at Play, keeps its choice over a manual Stop, turns Off when it
// fired, and a new fade keeps the running timer's end.

import { describe, expect, it } from "vitest";
import { DEFAULT_LEVELS } from "../../../../dsp/host/schema/levels";
import { LEVELS_STORAGE_KEY, createLevelsStore, levelsOf } from "../../../../web/levels/levels-store";
import { SleepTimer, createSleepTimerStore, formatTimeLeft } from "../../../../web/levels/sleep-timer";
import { balanceText } from "../../../../web/levels/SafeListeningPanel";

function memoryStorage(initial: Record<string, string> = {}) {
  const data = new Map(Object.entries(initial));
  return { getItem: (k: string) => data.get(k) ?? null, setItem: (k: string, v: string) => void data.set(k, v), data };
}

describe("levels store", () => {
  it("starts at the defaults and keeps every change for the next visit", () => {
    const storage = memoryStorage();
    const a = createLevelsStore(storage);
    expect(levelsOf(a.getState())).toEqual(DEFAULT_LEVELS);
    a.getState().setLevels({ balance: 3.04 });
    a.getState().setLevels({ limiter: false, fadeIn: 5 });
    const b = createLevelsStore(storage);
    expect(levelsOf(b.getState())).toEqual({ fadeIn: 5, limiter: false, balance: 3 });
    expect(JSON.parse(storage.data.get(LEVELS_STORAGE_KEY)!)).toEqual({ fadeIn: 5, limiter: false, balance: 3 });
  });

  it("clamps out-of-range values and ignores unreadable storage", () => {
    const s = createLevelsStore(memoryStorage({ [LEVELS_STORAGE_KEY]: "{not json" }));
    expect(levelsOf(s.getState())).toEqual(DEFAULT_LEVELS);
    s.getState().setLevels({ balance: -40, fadeIn: 99 });
    expect(levelsOf(s.getState())).toEqual({ ...DEFAULT_LEVELS, balance: -12, fadeIn: 30 });
    const wrong = createLevelsStore(memoryStorage({ [LEVELS_STORAGE_KEY]: JSON.stringify({ limiter: "yes", balance: 2 }) }));
    expect(levelsOf(wrong.getState())).toEqual({ ...DEFAULT_LEVELS, balance: 2 });
    expect(levelsOf(createLevelsStore(null).getState())).toEqual(DEFAULT_LEVELS);
  });

  it("names the ear that is turned down", () => {
    expect(balanceText(0)).toBe("Centre");
    expect(balanceText(3)).toBe("Left ear −3.0 dB");
    expect(balanceText(-12)).toBe("Right ear −12.0 dB");
  });
});

describe("sleep timer", () => {
  function setup() {
    const calls: string[] = [];
    let clock = 1_000_000;
    const store = createSleepTimerStore();
    const timer = new SleepTimer(store, { sleep: (a, f) => calls.push(`sleep ${a} ${f}`), cancelSleep: () => calls.push("cancel") }, () => clock);
    return { calls, store, timer, advance: (ms: number) => (clock += ms), now: () => clock };
  }

  it("chosen while stopped, it starts counting at Play", () => {
    const t = setup();
    t.timer.choose(15, false);
    expect(t.calls).toEqual([]);
    expect(t.store.getState().endsAt).toBeNull();
    t.timer.playing(true);
    expect(t.calls).toEqual(["sleep 900 30"]);
    expect(t.store.getState().endsAt).toBe(t.now() + 900_000);
  });

  it("chosen while playing, it starts at once; Off cancels", () => {
    const t = setup();
    t.timer.choose(5, true);
    t.timer.choose(0, true);
    expect(t.calls).toEqual(["sleep 300 30", "cancel"]);
    expect(t.store.getState().endsAt).toBeNull();
  });

  it("a manual Stop keeps the choice; the timer firing turns it Off", () => {
    const t = setup();
    t.timer.choose(10, true);
    t.advance(60_000);
    t.timer.playing(false); // Stop by hand after a minute
    expect(t.store.getState()).toMatchObject({ minutes: 10, endsAt: null });
    t.timer.playing(true);
    t.advance(600_000);
    t.timer.playing(false); // the engine ended playback at the timer's end
    expect(t.store.getState()).toMatchObject({ minutes: 0, endsAt: null });
  });

  it("a new fade keeps the running timer's end", () => {
    const t = setup();
    t.timer.choose(5, true);
    t.advance(100_000);
    t.timer.chooseFade(60, true);
    expect(t.calls).toEqual(["sleep 300 30", "sleep 200 60"]);
  });

  it("formats the time left", () => {
    expect(formatTimeLeft(299_001)).toBe("5:00");
    expect(formatTimeLeft(5_400_000)).toBe("1:30:00");
    expect(formatTimeLeft(-5)).toBe("0:00");
  });
});
