// Screen-reader announcements (spec/studio.md section 9: cleared after 1 s). One polite live
// region (LiveRegion.tsx) shows the latest message; it is emptied a second later, so the region
// never holds stale text and the same message can be announced again. Playback, export and the
// quality test call announce(); toasts have their own live region (sonner's).

import { createStore, type StoreApi } from "zustand/vanilla";

export const ANNOUNCEMENT_CLEAR_MS = 1000;
/** A repeat of the message on screen is re-inserted after this pause (screen readers announce
 *  changes, not unchanged text). */
const REPEAT_GAP_MS = 100;

export interface AnnouncerState {
  message: string;
}

interface Timers {
  set(fn: () => void, ms: number): unknown;
  clear(handle: unknown): void;
}

const realTimers: Timers = {
  set: (fn, ms) => setTimeout(fn, ms),
  clear: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
};

export interface Announcer {
  state: StoreApi<AnnouncerState>;
  announce(message: string): void;
}

export function createAnnouncer(timers: Timers = realTimers): Announcer {
  const state = createStore<AnnouncerState>()(() => ({ message: "" }));
  let clearTimer: unknown = null;
  let repeatTimer: unknown = null;
  const show = (message: string) => {
    state.setState({ message });
    clearTimer = timers.set(() => state.setState({ message: "" }), ANNOUNCEMENT_CLEAR_MS);
  };
  return {
    state,
    announce(message) {
      const text = message.trim();
      if (!text) return;
      if (clearTimer !== null) timers.clear(clearTimer);
      if (repeatTimer !== null) timers.clear(repeatTimer);
      clearTimer = repeatTimer = null;
      if (state.getState().message === text) {
        state.setState({ message: "" });
        repeatTimer = timers.set(() => show(text), REPEAT_GAP_MS);
      } else {
        show(text);
      }
    },
  };
}

/** The page's announcer. */
export const announcer = createAnnouncer();

export function announce(message: string): void {
  announcer.announce(message);
}
