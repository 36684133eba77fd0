// The side sounds' registry (web/audio/side-sound.ts) with stand-ins for the audio client and the
// players: starting one side sound stops the studio's playback, the demo cards and every other
// side sound, never itself; starting the studio stops only the side sound that sounds. Also the
// start tickets and the one-player-per-client helper.

import { describe, expect, it, vi } from "vitest";
import { perClient, SideSounds, Tickets, type SideSound } from "../../../../web/audio/side-sound";
import { createStudioStore } from "../../../../web/state/studio-store";

function setup() {
  const store = createStudioStore();
  const host = {
    stop: vi.fn(() => store.getState().setPlaying(false)),
    demos: { stopAll: vi.fn() },
  };
  const sounds = new SideSounds(host, store);
  const player = (sounding = false) => {
    const p = { on: sounding, sounding: () => p.on, stop: vi.fn(() => void (p.on = false)) };
    return p satisfies SideSound;
  };
  return { store, host, sounds, player };
}

describe("SideSounds", () => {
  it("starting one stops the studio, the demo cards and the other side sounds, not itself", () => {
    const { store, host, sounds, player } = setup();
    store.getState().setPlaying(true);
    const [quality, headphone, third] = [player(), player(true), player(true)];
    for (const p of [quality, headphone, third]) sounds.add(p);

    expect(sounds.claim(quality)).toBe(true); // the studio was playing: its fade is still sounding
    expect(host.stop).toHaveBeenCalledTimes(1);
    expect(store.getState().isPlaying).toBe(false);
    expect(host.demos.stopAll).toHaveBeenCalledTimes(1);
    expect(headphone.stop).toHaveBeenCalledTimes(1);
    expect(third.stop).toHaveBeenCalledTimes(1);
    expect(quality.stop).not.toHaveBeenCalled();
  });

  it("leaves a stopped studio alone, and still stops the demo cards and the others", () => {
    const { host, sounds, player } = setup();
    const [a, b] = [player(), player()];
    sounds.add(a);
    sounds.add(b);

    expect(sounds.claim(b)).toBe(false);
    expect(host.stop).not.toHaveBeenCalled();
    expect(host.demos.stopAll).toHaveBeenCalledTimes(1);
    // Stopped even when not sounding: a start still on its way (a render) is called off too.
    expect(a.stop).toHaveBeenCalledTimes(1);
    expect(b.stop).not.toHaveBeenCalled();
  });

  it("starting the studio stops the side sound that sounds, and only on the start", () => {
    const { store, sounds, player } = setup();
    const [sounding, silent] = [player(true), player(false)];
    sounds.add(sounding);
    sounds.add(silent);

    store.getState().setPlaying(true);
    expect(sounding.stop).toHaveBeenCalledTimes(1);
    expect(silent.stop).not.toHaveBeenCalled();

    sounding.on = true; // a side sound started while the studio plays on (claim stops the studio in the app)
    store.getState().setFrequency(1, 440); // a change while playing is no start
    store.getState().setPlaying(false);
    expect(sounding.stop).toHaveBeenCalledTimes(1);
  });

  it("forgets a removed player", () => {
    const { store, sounds, player } = setup();
    const [kept, removed] = [player(true), player(true)];
    sounds.add(kept);
    const remove = sounds.add(removed);
    remove();

    sounds.claim(kept);
    store.getState().setPlaying(true);
    expect(removed.stop).not.toHaveBeenCalled();
    expect(kept.stop).toHaveBeenCalledTimes(1); // by the studio's start
  });
});

describe("Tickets", () => {
  it("a newer ticket makes the earlier one stale, per key", () => {
    const t = new Tickets<string>();
    const first = t.take("a");
    const other = t.take("b");
    expect(t.valid(first, "a")).toBe(true);
    const second = t.take("a");
    expect(t.valid(first, "a")).toBe(false);
    expect(t.valid(second, "a")).toBe(true);
    expect(t.valid(other, "b")).toBe(true);
  });

  it("works without keys", () => {
    const t = new Tickets();
    const play = t.take();
    t.take(); // a stop
    expect(t.valid(play)).toBe(false);
  });
});

describe("perClient", () => {
  it("makes one player per client", () => {
    const make = vi.fn((client: object, n: number) => ({ client, n }));
    const playerOf = perClient(make);
    const [c1, c2] = [{}, {}];
    const p = playerOf(c1, 1);
    expect(playerOf(c1, 2)).toBe(p);
    expect(playerOf(c2, 3)).not.toBe(p);
    expect(make).toHaveBeenCalledTimes(2);
  });
});
