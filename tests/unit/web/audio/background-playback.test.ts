// Background playback and the Media Session (web/audio/background-playback.ts), with a fake
// audio client, media session and keep-alive element.

import { describe, expect, it, vi } from "vitest";
import { createStore } from "zustand/vanilla";
import { bindBackgroundPlayback, channelSummary, nowPlaying, type MediaSessionLike } from "../../../../web/audio/background-playback";
import type { AudioClient } from "../../../../web/audio/audio-client";
import type { DemoPlayerState } from "../../../../web/audio/demo-player";
import { DEMO_CARDS_BY_ID } from "../../../../web/demo-cards/presets";
import { createStudioStore } from "../../../../web/state/studio-store";

function fakes() {
  const store = createStudioStore();
  const demoState = createStore<DemoPlayerState>()(() => ({ playing: {} }));
  const setCard = (id: string, on: boolean) => demoState.setState((s) => ({ playing: { ...s.playing, [id]: on } }));
  const audio = {
    onGesture: new Set<() => void>(),
    ensureContext: vi.fn(),
    resumeIfInterrupted: vi.fn(),
    start: vi.fn(async () => {
      store.getState().setPlaying(true);
      return true;
    }),
    stop: vi.fn(() => store.getState().setPlaying(false)),
    demos: {
      state: demoState,
      play: vi.fn(async (id: string) => {
        setCard(id, true);
        return true;
      }),
      stopAll: vi.fn(() => demoState.setState({ playing: {} })),
    },
  };
  const handlers = new Map<string, (() => void) | null>();
  const session: MediaSessionLike = {
    metadata: null,
    playbackState: "none",
    setActionHandler: (action, handler) => handlers.set(action, handler),
  };
  const keepAlive = { start: vi.fn(), stop: vi.fn() };
  const unbind = bindBackgroundPlayback(audio as unknown as AudioClient, store, {
    mediaSession: session,
    makeMetadata: (m) => m as unknown as MediaMetadata,
    keepAlive,
    cards: DEMO_CARDS_BY_ID,
  });
  return { store, audio, session, handlers, keepAlive, setCard, unbind };
}

describe("now playing", () => {
  it("names the studio by its audible channels and the cards by title", () => {
    const channels = [
      { enabled: true, frequency: 432 },
      { enabled: false, frequency: 0 },
      { enabled: true, frequency: 7.83 },
    ];
    expect(channelSummary(channels)).toBe("432 · 7.83 Hz");
    expect(nowPlaying({ isPlaying: false, channels }, [])).toBeNull();
    expect(nowPlaying({ isPlaying: true, channels }, [])).toEqual({ title: "432 · 7.83 Hz", artist: "Tone Studio" });
    expect(nowPlaying({ isPlaying: false, channels }, ["Gamma Focus"])).toEqual({ title: "Gamma Focus", artist: "Tone Studio" });
    expect(nowPlaying({ isPlaying: true, channels }, ["Gamma Focus", "Theta Meditation"])?.title).toBe("Studio + Gamma Focus + Theta Meditation");
  });
});

describe("background playback", () => {
  it("starts the keep-alive inside the gesture and shows what plays on the lock screen", () => {
    const f = fakes();
    for (const hook of f.audio.onGesture) hook();
    expect(f.keepAlive.start).toHaveBeenCalledTimes(1);
    f.store.getState().setPlaying(true);
    expect(f.session.playbackState).toBe("playing");
    expect(f.session.metadata).toMatchObject({ title: "432 · 528 · 639 · 741 Hz" });
    f.setCard("gamma-focus", true);
    expect(f.session.metadata).toMatchObject({ title: "Studio + Gamma Focus" });
    f.store.getState().setPlaying(false);
    f.setCard("gamma-focus", false);
    expect(f.session.playbackState).toBe("none");
    expect(f.keepAlive.stop).toHaveBeenCalled();
  });

  it("lock-screen pause stops every source; play starts the same ones again", async () => {
    const f = fakes();
    f.store.getState().setPlaying(true);
    f.setCard("theta-meditation", true);
    f.handlers.get("pause")!();
    expect(f.audio.stop).toHaveBeenCalledTimes(1);
    expect(f.audio.demos.stopAll).toHaveBeenCalledTimes(1);
    expect(f.session.playbackState).toBe("paused");
    expect(f.keepAlive.stop).toHaveBeenCalled();

    f.handlers.get("play")!();
    await Promise.resolve();
    expect(f.audio.ensureContext).toHaveBeenCalled();
    expect(f.audio.start).toHaveBeenCalledTimes(1);
    expect(f.audio.demos.play).toHaveBeenCalledWith("theta-meditation", DEMO_CARDS_BY_ID.get("theta-meditation")!.state);
    expect(f.session.playbackState).toBe("playing");
    // Play with nothing paused does nothing.
    f.handlers.get("play")!();
    expect(f.audio.start).toHaveBeenCalledTimes(1);
  });

  it("stop acts like pause; unbinding clears the handlers", () => {
    const f = fakes();
    f.setCard("solfeggio", true);
    f.handlers.get("stop")!();
    expect(f.audio.demos.stopAll).toHaveBeenCalledTimes(1);
    expect(f.audio.stop).not.toHaveBeenCalled();
    f.unbind();
    expect([...f.handlers.values()].every((h) => h === null)).toBe(true);
    expect(f.audio.onGesture.size).toBe(0);
  });
});
