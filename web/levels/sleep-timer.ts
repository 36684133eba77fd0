// The sleep timer: stop playback after a chosen time, fading out over the last
// seconds instead of cutting. Chosen per listening session, so it is not stored. The choice is
// armed whenever playback runs: chosen while playing, it starts counting at once; chosen while
// stopped, it starts with the next Play. The engine does the fade and the stop to the sample
// (dsp/assembly/engine.ts sleepAfter); playback ending by the timer goes through the usual "ended"
// path, which sets the studio's isPlaying to false (the Play button returns to Play) and turns
// the timer back to Off. Stopping by hand keeps the choice for the next Play.

import { createStore, type StoreApi } from "zustand/vanilla";
import { SLEEP_FADE_DEFAULT_SECONDS } from "../../dsp/host/schema/levels";

/** The timer's choices in minutes; 0 is Off. */
export const SLEEP_MINUTES = [0, 5, 10, 15, 30, 45, 60, 90] as const;
export type SleepMinutes = (typeof SLEEP_MINUTES)[number];
/** The fade-out's choices in seconds. */
export const SLEEP_FADE_CHOICES = [10, 30, 60, 120, 300] as const;
export type SleepFade = (typeof SLEEP_FADE_CHOICES)[number];

export interface SleepTimerState {
  minutes: SleepMinutes;
  fadeSeconds: SleepFade;
  /** When playback will stop (ms since the epoch, the page's clock) while the timer runs. */
  endsAt: number | null;
}

/** What the sleep timer drives: the audio client. */
export interface SleepTarget {
  sleep(afterSeconds: number, fadeSeconds: number): void;
  cancelSleep(): void;
}

export const sleepDefaults: SleepTimerState = { minutes: 0, fadeSeconds: SLEEP_FADE_DEFAULT_SECONDS as SleepFade, endsAt: null };

export function createSleepTimerStore(): StoreApi<SleepTimerState> {
  return createStore<SleepTimerState>()(() => ({ ...sleepDefaults }));
}

/** Runs a sleep timer store against the audio: call choose()/chooseFade() for the user's picks and
 *  playing() whenever playback starts or stops. `now` is injectable for tests. */
export class SleepTimer {
  constructor(
    readonly store: StoreApi<SleepTimerState>,
    private readonly target: SleepTarget,
    private readonly now: () => number = Date.now,
  ) {}

  private arm(): void {
    const { minutes, fadeSeconds } = this.store.getState();
    if (minutes === 0) {
      this.target.cancelSleep();
      this.store.setState({ endsAt: null });
      return;
    }
    this.target.sleep(minutes * 60, fadeSeconds);
    this.store.setState({ endsAt: this.now() + minutes * 60_000 });
  }

  choose(minutes: SleepMinutes, isPlaying: boolean): void {
    this.store.setState({ minutes });
    if (isPlaying) this.arm();
  }

  chooseFade(fadeSeconds: SleepFade, isPlaying: boolean): void {
    this.store.setState({ fadeSeconds });
    // A running timer keeps its end and takes the new fade.
    const { endsAt, minutes } = this.store.getState();
    if (isPlaying && endsAt !== null && minutes > 0) {
      this.target.sleep(Math.max(0, (endsAt - this.now()) / 1000), fadeSeconds);
    }
  }

  /** Playback started (true) or stopped (false). A stop at (or after) the timer's end is the timer
   *  firing: it turns back to Off. */
  playing(isPlaying: boolean): void {
    if (isPlaying) {
      this.arm();
      return;
    }
    const { endsAt } = this.store.getState();
    // A second of slack: the engine's clock and the page's drift apart a little.
    const fired = endsAt !== null && this.now() >= endsAt - 1000;
    this.store.setState(fired ? { minutes: 0, endsAt: null } : { endsAt: null });
  }
}

/** "4:59" or "1:02:03": the time left, rounded up to the second. */
export function formatTimeLeft(ms: number): string {
  const s = Math.max(0, Math.ceil(ms / 1000));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const ss = String(s % 60).padStart(2, "0");
  return h > 0 ? `${h}:${String(m).padStart(2, "0")}:${ss}` : `${m}:${ss}`;
}
