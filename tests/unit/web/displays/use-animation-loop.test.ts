// The displays' frame gate (web/displays/use-animation-loop.ts): how many frames a throttled rAF
// loop draws per second on common display refresh rates; and the displays' shared loop on a
// simulated screen and clock: it draws at the gate's rate and a plain rAF loop's cadence while
// asking for far fewer animation frames, displays with the same gap draw on the same frame, and
// once every display is removed nothing is left scheduled.

import { describe, expect, it } from "vitest";
import { createFrameGate, createFrameScheduler, type LoopClock } from "../../../../web/displays/use-animation-loop";

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

type Timer = ReturnType<typeof setTimeout>;

/** A simulated screen refreshing at `hz` and a clock, event by event (no real time passes).
 *  An animation frame asked for runs `lag` ms after its refresh; with `stale` its timestamp is
 *  the refresh already under way when it was asked for (before the request, as Chromium's can
 *  be), otherwise the next refresh; never two batches in one refresh. Timers fire `late` ms
 *  after they are due. */
class SimulatedScreen implements LoopClock {
  t = 0;
  requests = 0;
  private id = 1;
  private served = -Infinity;
  private frames = new Map<number, (t: number) => void>();
  private timers = new Map<number, { at: number; cb: () => void }>();
  constructor(private readonly o: { hz: number; lag: number; stale: boolean; late: number }) {}
  now = () => this.t;
  requestFrame = (cb: (t: number) => void) => {
    this.requests++;
    this.frames.set(this.id, cb);
    return this.id++;
  };
  cancelFrame = (id: number) => void this.frames.delete(id);
  setTimer = (cb: () => void, ms: number) => {
    this.timers.set(this.id, { at: this.t + ms + this.o.late, cb });
    return this.id++ as unknown as Timer;
  };
  clearTimer = (id: Timer) => void this.timers.delete(id as unknown as number);
  pending(): number {
    return this.frames.size + this.timers.size;
  }
  run(untilMs: number): void {
    const period = 1000 / this.o.hz;
    while (this.t < untilMs) {
      // One batch of animation frames per refresh (counted in whole refreshes), as in a browser.
      const refresh = Math.max(this.served + 1, this.o.stale ? Math.floor(this.t / period) : Math.floor(this.t / period) + 1);
      const stamp = refresh * period;
      const frameAt = this.frames.size > 0 ? Math.max(this.t, stamp) + this.o.lag : Infinity;
      const [timerId, timer] = [...this.timers].reduce<[number, { at: number; cb: () => void } | null]>((a, b) => (a[1] && a[1].at <= b[1].at ? a : b), [0, null]);
      if (!timer && frameAt === Infinity) return;
      if (timer && timer.at <= frameAt) {
        this.t = timer.at;
        this.timers.delete(timerId);
        timer.cb();
      } else {
        this.t = frameAt;
        this.served = refresh;
        const due = [...this.frames.values()];
        this.frames.clear();
        for (const cb of due) cb(stamp);
      }
    }
  }
}

describe("frame scheduler", () => {
  const screens = [
    { hz: 60, lag: 1, stale: false, late: 0 },
    { hz: 60, lag: 6, stale: true, late: 0 }, // Chromium's: timestamps before the request
    { hz: 60, lag: 3, stale: true, late: 4 }, // a busy main thread: timers 4 ms late
    { hz: 120, lag: 2, stale: false, late: 1 },
  ];

  it.each(screens)("draws at the gate's rate, asking for few animation frames (%o)", (o) => {
    for (const [gapMs, fps] of [[1000 / 24, 24], [30, 33.3], [50, 20]]) {
      const screen = new SimulatedScreen(o);
      let drawn = 0;
      const remove = createFrameScheduler(screen).add(gapMs, () => drawn++);
      screen.run(10_000);
      remove();
      expect(drawn / 10, `gap ${gapMs} ms`).toBeGreaterThan(fps * 0.97);
      expect(drawn / 10, `gap ${gapMs} ms`).toBeLessThan(fps * 1.03);
      // One frame per draw; two when every frame asked for runs in the refresh under way (a plain
      // rAF loop asks for one on every refresh: 2.5 per draw at 24 fps on 60 Hz).
      expect(screen.requests / drawn, `gap ${gapMs} ms`).toBeLessThan(o.stale || o.hz !== 60 ? 2.1 : 1.1);
    }
  });

  it.each(screens.filter((o) => o.hz === 60 && o.late === 0))("keeps a plain rAF loop's cadence at 24 fps on 60 Hz: 2 or 3 refreshes apart (%o)", (o) => {
    const screen = new SimulatedScreen(o);
    const stamps: number[] = [];
    createFrameScheduler(screen).add(1000 / 24, (now) => stamps.push(now));
    screen.run(5000);
    const refreshes = new Set(stamps.slice(1).map((t, i) => Math.round((t - stamps[i]) / (1000 / 60))));
    expect([...refreshes].sort()).toEqual([2, 3]);
  });

  it("draws on every refresh when the gap is shorter than one", () => {
    const screen = new SimulatedScreen({ hz: 60, lag: 2, stale: true, late: 0 });
    let drawn = 0;
    createFrameScheduler(screen).add(5, () => drawn++);
    screen.run(1000);
    expect(drawn).toBeGreaterThanOrEqual(59);
    expect(drawn).toBeLessThanOrEqual(61);
  });

  it("draws two displays with the same gap on the same frames, even when the second starts later", () => {
    const screen = new SimulatedScreen({ hz: 60, lag: 6, stale: true, late: 2 });
    const scheduler = createFrameScheduler(screen);
    const waveform: number[] = [];
    const spectrogram: number[] = [];
    scheduler.add(1000 / 24, (now) => waveform.push(now));
    screen.run(30); // the spectrogram is switched on a little later
    scheduler.add(1000 / 24, (now) => spectrogram.push(now));
    screen.run(5000);
    expect(waveform.length / 5).toBeCloseTo(24, 0);
    expect(spectrogram.length).toBeGreaterThan(110);
    expect(spectrogram.every((t) => waveform.includes(t))).toBe(true);
    expect(screen.requests).toBeLessThan(waveform.length * 2.1);
  });

  it("runs displays with different gaps each at its own rate", () => {
    const screen = new SimulatedScreen({ hz: 60, lag: 2, stale: true, late: 1 });
    const scheduler = createFrameScheduler(screen);
    let waveform = 0;
    let spectrogram = 0;
    scheduler.add(30, () => waveform++);
    scheduler.add(20, () => spectrogram++);
    screen.run(10_000);
    expect(waveform / 10).toBeCloseTo(33.3, 0);
    expect(spectrogram / 10).toBeCloseTo(50, 0);
  });

  it("keeps going when a draw throws", () => {
    const screen = new SimulatedScreen({ hz: 60, lag: 1, stale: false, late: 0 });
    let drawn = 0;
    createFrameScheduler(screen).add(50, () => {
      drawn++;
      throw new Error("canvas gone");
    });
    let thrown = 0;
    while (screen.t < 1000 && thrown < 100) {
      try {
        screen.run(1000);
      } catch {
        thrown++; // the browser reports it and carries on with the next task
      }
    }
    expect(drawn).toBeGreaterThanOrEqual(19);
    expect(drawn).toBeLessThanOrEqual(21);
  });

  it("once every display is removed, leaves no animation frame and no timer behind", () => {
    const screen = new SimulatedScreen({ hz: 60, lag: 1, stale: false, late: 0 });
    const scheduler = createFrameScheduler(screen);
    let drawn = 0;
    const removeA = scheduler.add(1000 / 24, () => drawn++);
    const removeB = scheduler.add(30, () => drawn++);
    screen.run(500);
    removeA();
    expect(screen.pending()).toBe(1);
    removeB();
    expect(screen.pending()).toBe(0);
    const before = drawn;
    screen.run(1000);
    expect(drawn).toBe(before);
    scheduler.add(30, () => drawn++); // and starts again, drawing at once
    screen.run(1100);
    expect(drawn).toBeGreaterThan(before);
  });
});
