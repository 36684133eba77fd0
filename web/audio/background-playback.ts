// Playback that survives a locked screen or a background tab, and the lock-screen controls.
// - Media Session (where present): metadata for what plays (the studio's channels, the demo
//   cards), playbackState, and play / pause / stop handlers. Pause stops every source and
//   remembers them; play starts them again.
// - Safari's navigator.audioSession is set to "playback", so Web Audio keeps going on a locked
//   iPhone and ignores the silent switch.
// - The keep-alive element (keep-alive.ts) plays while anything sounds.
// - When the page comes back, a context the system paused is resumed.
// Nothing here suspends audio when the page is hidden; the displays stop drawing on their own.

import type { StoreApi } from "zustand/vanilla";
import type { StudioStore } from "../state/studio-store";
import type { ChannelState } from "../../dsp/host/schema/state";
import type { AudioClient } from "./audio-client";
import { KeepAlive } from "./keep-alive";

export interface NowPlaying {
  title: string;
  artist: string;
}

export const APP_TITLE = "Tone Studio";

/** "432 · 528 Hz": the enabled, audible channels. */
export function channelSummary(channels: readonly Pick<ChannelState, "enabled" | "frequency">[]): string {
  const hz = channels.filter((c) => c.enabled && c.frequency > 0).map((c) => String(c.frequency));
  return hz.length ? `${hz.join(" · ")} Hz` : "";
}

/** What the lock screen shows: the studio (by its channels) and the playing demo cards by title;
 *  null when nothing plays. */
export function nowPlaying(
  studio: { isPlaying: boolean; channels: readonly Pick<ChannelState, "enabled" | "frequency">[] },
  cardTitles: readonly string[],
): NowPlaying | null {
  const parts = [...(studio.isPlaying ? ["Studio"] : []), ...cardTitles];
  if (parts.length === 0) return null;
  if (studio.isPlaying && cardTitles.length === 0) return { title: channelSummary(studio.channels) || APP_TITLE, artist: APP_TITLE };
  return { title: parts.join(" + "), artist: APP_TITLE };
}

/** What Pause stopped, so that Play can start it again. */
export interface Paused {
  studio: boolean;
  cards: string[];
}

type Action = "play" | "pause" | "stop";

/** The parts of navigator.mediaSession this uses (so tests can pass a fake). */
export interface MediaSessionLike {
  metadata: MediaMetadata | null;
  playbackState: MediaSessionPlaybackState;
  setActionHandler(action: Action, handler: (() => void) | null): void;
}

export interface BackgroundDeps {
  mediaSession?: MediaSessionLike;
  makeMetadata?: (m: NowPlaying) => MediaMetadata;
  keepAlive?: { start(): void; stop(): void };
  /** The demo cards' titles by id, for the lock screen, and their presets, to start again. */
  cards: ReadonlyMap<string, { title: string; state: Parameters<AudioClient["demos"]["play"]>[1] }>;
}

/** Wires background playback and the Media Session to the studio and the demo cards. Returns
 *  an unbind function. */
export function bindBackgroundPlayback(audio: AudioClient, store: StoreApi<StudioStore>, deps: BackgroundDeps): () => void {
  const session = deps.mediaSession;
  const keepAlive = deps.keepAlive ?? new KeepAlive();
  let paused: Paused | null = null;

  const playingCards = () => Object.entries(audio.demos.state.getState().playing).filter(([, on]) => on).map(([id]) => id);

  const refresh = () => {
    const cards = playingCards();
    const s = store.getState();
    const now = nowPlaying(s, cards.map((id) => deps.cards.get(id)?.title ?? id));
    if (now) {
      paused = null;
      keepAlive.start();
    } else {
      keepAlive.stop();
    }
    if (!session) return;
    if (now) {
      session.metadata = deps.makeMetadata?.(now) ?? null;
      session.playbackState = "playing";
    } else {
      session.playbackState = paused ? "paused" : "none";
    }
  };

  const pause = () => {
    const cards = playingCards();
    const studio = store.getState().isPlaying;
    if (!studio && cards.length === 0) return;
    const wasPlaying: Paused = { studio, cards };
    if (studio) audio.stop();
    audio.demos.stopAll();
    paused = wasPlaying;
    refresh();
  };

  const play = () => {
    const resume = paused;
    if (!resume) return;
    paused = null;
    audio.ensureContext();
    if (resume.studio) audio.start().catch((err: unknown) => console.error("Could not resume playback:", err));
    for (const id of resume.cards) {
      const card = deps.cards.get(id);
      if (card) audio.demos.play(id, card.state).catch((err: unknown) => console.error("Could not resume demo card:", err));
    }
  };

  const onGesture = () => keepAlive.start();
  audio.onGesture.add(onGesture);
  const unsubStudio = store.subscribe((s, prev) => {
    if (s.isPlaying !== prev.isPlaying || (s.isPlaying && s.channels !== prev.channels)) refresh();
  });
  const unsubCards = audio.demos.state.subscribe(refresh);
  const onVisible = () => {
    if (!document.hidden && (store.getState().isPlaying || playingCards().length > 0)) audio.resumeIfInterrupted();
  };
  if (typeof document !== "undefined") document.addEventListener("visibilitychange", onVisible);
  const handlers: [Action, () => void][] = [["play", play], ["pause", pause], ["stop", pause]];
  for (const [action, handler] of handlers) {
    try {
      session?.setActionHandler(action, handler);
    } catch {
      // An action this browser does not support: the others still work.
    }
  }

  return () => {
    audio.onGesture.delete(onGesture);
    unsubStudio();
    unsubCards();
    if (typeof document !== "undefined") document.removeEventListener("visibilitychange", onVisible);
    for (const [action] of handlers) {
      try {
        session?.setActionHandler(action, null);
      } catch {
        // as above
      }
    }
  };
}

/** Asks Safari to treat the page's Web Audio as media playback (keeps going when locked). */
export function preferPlaybackAudioSession(nav: Navigator = navigator): void {
  const audioSession = (nav as Navigator & { audioSession?: { type: string } }).audioSession;
  if (audioSession) audioSession.type = "playback";
}
