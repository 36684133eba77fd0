// Previews on /marketplace (spec/accounts.md sections 4 and 9): one sound plays at a time at
// volume 0.5; starting another stops and resets the others; clicking the playing one stops it;
// the end of playback resets it. Each card owns an <audio preload="none"> that streams the
// sound's preview (the browser asks for byte ranges); this controller only decides which one
// plays. It knows media elements through the small PreviewMedia interface, so the rules are
// unit-tested with stand-ins. React reads `playingId` from the zustand store.
// Previews are not side sounds (web/audio/side-sound.ts): they play outside the AudioContext and
// the spec has them exclude only each other, so the studio and the demo cards play on beside them.

import { createStore, type StoreApi } from "zustand/vanilla";
import { PREVIEW_VOLUME } from "../../api/rules/marketplace";

/** The part of HTMLMediaElement the controller uses. */
export interface PreviewMedia {
  volume: number;
  currentTime: number;
  readonly paused: boolean;
  play(): Promise<void>;
  pause(): void;
  addEventListener(type: "ended" | "error" | "pause", listener: () => void): void;
  removeEventListener(type: "ended" | "error" | "pause", listener: () => void): void;
}

export interface PreviewState {
  /** The sound whose preview is playing (or starting), null when none. */
  playingId: string | null;
}

function rewind(el: PreviewMedia): void {
  try {
    el.currentTime = 0;
  } catch {
    // Nothing loaded yet: it starts from 0 anyway.
  }
}

export class PreviewController {
  readonly store: StoreApi<PreviewState> = createStore<PreviewState>(() => ({ playingId: null }));
  private readonly media = new Map<string, { el: PreviewMedia; detach: () => void }>();
  /** Called once per failed start or broken stream ('Failed to play audio'). */
  private readonly onError: (id: string, err: unknown) => void;

  constructor(onError: (id: string, err: unknown) => void) {
    this.onError = onError;
  }

  get playingId(): string | null {
    return this.store.getState().playingId;
  }

  /** Adds a card's media element; returns its removal. */
  register(id: string, el: PreviewMedia): () => void {
    this.media.get(id)?.detach();
    el.volume = PREVIEW_VOLUME;
    const onEnded = () => {
      rewind(el);
      if (this.playingId === id) this.store.setState({ playingId: null });
    };
    // Paused from elsewhere (media keys, the system): the card shows it stopped.
    const onPause = () => {
      if (this.playingId === id) {
        this.store.setState({ playingId: null });
        rewind(el);
      }
    };
    const onError = () => this.fail(id, new Error("The preview stream failed"));
    el.addEventListener("ended", onEnded);
    el.addEventListener("pause", onPause);
    el.addEventListener("error", onError);
    const detach = () => {
      el.removeEventListener("ended", onEnded);
      el.removeEventListener("pause", onPause);
      el.removeEventListener("error", onError);
    };
    this.media.set(id, { el, detach });
    return () => {
      if (this.media.get(id)?.el !== el) return;
      if (this.playingId === id) this.stop();
      detach();
      this.media.delete(id);
    };
  }

  /** Preview / Stop on a card. */
  toggle(id: string): void {
    if (this.playingId === id) {
      this.stop();
      return;
    }
    const entry = this.media.get(id);
    if (!entry) return;
    this.store.setState({ playingId: id }); // before pausing the others: their pause events see it
    for (const [other, { el }] of this.media) {
      if (other === id) continue;
      if (!el.paused) el.pause();
      rewind(el);
    }
    entry.el.volume = PREVIEW_VOLUME;
    let started: Promise<void>;
    try {
      started = entry.el.play();
    } catch (err) {
      started = Promise.reject(err);
    }
    // A start interrupted by our own pause (another card was chosen) rejects with AbortError
    // after playingId moved on: only a failure of the current preview is reported.
    void Promise.resolve(started).catch((err: unknown) => this.fail(id, err));
  }

  /** Stops and rewinds the playing preview, if any. */
  stop(): void {
    const id = this.playingId;
    if (id === null) return;
    this.store.setState({ playingId: null });
    const el = this.media.get(id)?.el;
    if (!el) return;
    el.pause();
    rewind(el);
  }

  private fail(id: string, err: unknown): void {
    if (this.playingId !== id) return;
    this.store.setState({ playingId: null });
    const el = this.media.get(id)?.el;
    if (el) {
      if (!el.paused) el.pause();
      rewind(el);
    }
    this.onError(id, err);
  }
}
