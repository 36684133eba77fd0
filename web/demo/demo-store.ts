// The free user's one 10-minute demo (spec/accounts.md sections 4 and 7): a vanilla zustand store
// that asks the server for the demo's status (GET /api/demo/status), starts it (POST
// /api/demo/start, then the status again: the demo is active only once the server confirms it),
// counts down in whole seconds and expires at zero, calling `onExpired` once. A start refused with
// 'already used' marks the demo used and expired. Clock, timers and fetch are injected so unit
// tests run it without a browser.

import { createStore, type StoreApi } from "zustand/vanilla";
import { requestJson } from "../account/api";
import { PAY_TEXT } from "../payments/messages";
import { DEMO_MINUTES, remainingMs } from "./countdown";

export type DemoPhase = "unknown" | "not_started" | "active" | "expired";

/** GET /api/demo/status. */
export interface DemoStatusAnswer {
  canStartDemo: boolean;
  hasUsedDemo: boolean;
  isActive: boolean;
  timeRemaining: number;
  duration: number;
}

export interface DemoState {
  phase: DemoPhase;
  /** The server would start a demo for this user now. */
  canStart: boolean;
  /** When the running demo ends (ms since epoch); null unless active. */
  endsAt: number | null;
  /** Whole seconds left, rounded up (changes once a second while active). */
  secondsLeft: number;
  /** A start request is in flight. */
  starting: boolean;
}

export interface StartResult {
  ok: boolean;
  /** The toast: the server's success message, or the failure's text. */
  text: string;
}

export interface DemoActions {
  /** Reads the demo's status from the server (for the signed-in user whose token this is). */
  sync(token: string): Promise<void>;
  start(token: string): Promise<StartResult>;
  /** Recomputes the time left; expires the demo at zero. Called by the store's own timer. */
  tick(): void;
  /** Forgets everything (sign-out, another user). */
  reset(): void;
}

export type DemoStore = DemoState & DemoActions;

export interface DemoDeps {
  fetchImpl?: typeof fetch;
  now?: () => number;
  setInterval?: (fn: () => void, ms: number) => unknown;
  clearInterval?: (handle: unknown) => void;
  /** Fired once when a running demo reaches zero (or the server says it ended). */
  onExpired?: () => void;
}

/** How often the countdown is recomputed; the display changes once a second. */
export const DEMO_TICK_MS = 250;

const INITIAL: DemoState = { phase: "unknown", canStart: false, endsAt: null, secondsLeft: 0, starting: false };

export function createDemoStore(deps: DemoDeps = {}): StoreApi<DemoStore> {
  const now = deps.now ?? Date.now;
  const startTimer = deps.setInterval ?? ((fn: () => void, ms: number) => setInterval(fn, ms));
  const stopTimer = deps.clearInterval ?? ((h: unknown) => clearInterval(h as ReturnType<typeof setInterval>));
  let timer: unknown = null;
  // Bumped by reset(): answers to requests made for an earlier session are dropped.
  let generation = 0;

  return createStore<DemoStore>()((set, get) => {
    const stopTicking = () => {
      if (timer !== null) stopTimer(timer);
      timer = null;
    };

    const expire = () => {
      stopTicking();
      set({ phase: "expired", canStart: false, endsAt: null, secondsLeft: 0 });
      deps.onExpired?.();
    };

    const activate = (timeRemaining: number) => {
      const endsAt = now() + timeRemaining;
      set({ phase: "active", canStart: false, endsAt, secondsLeft: Math.ceil(timeRemaining / 1000) });
      if (timer === null) timer = startTimer(() => get().tick(), DEMO_TICK_MS);
    };

    const apply = (status: DemoStatusAnswer) => {
      if (status.isActive && status.timeRemaining > 0) {
        activate(status.timeRemaining);
        return;
      }
      if (get().phase === "active") {
        expire(); // the server ended it first (clock skew, another tab)
        return;
      }
      set({ phase: status.hasUsedDemo ? "expired" : "not_started", canStart: status.canStartDemo, endsAt: null, secondsLeft: 0 });
    };

    const fetchStatus = (token: string) =>
      requestJson<DemoStatusAnswer>("/api/demo/status", { token, fetchImpl: deps.fetchImpl });

    return {
      ...INITIAL,

      sync: async (token) => {
        const gen = generation;
        const status = await fetchStatus(token);
        if (gen === generation) apply(status);
      },

      start: async (token) => {
        if (get().starting) return { ok: false, text: "" };
        const gen = generation;
        set({ starting: true });
        try {
          const answer = await requestJson<{ duration?: number; message?: string }>("/api/demo/start", {
            body: { durationMinutes: DEMO_MINUTES },
            token,
            fetchImpl: deps.fetchImpl,
          });
          if (gen !== generation) return { ok: false, text: "" };
          // Active only once the server's status says so; if that read fails, the start answer
          // (the server's own word, with its duration) stands in for it.
          let status: DemoStatusAnswer | null = null;
          try {
            status = await fetchStatus(token);
          } catch (err) {
            console.warn("Demo status could not be read after the start", err);
          }
          if (gen !== generation) return { ok: false, text: "" };
          if (status) apply(status);
          else if (answer.duration && answer.duration > 0) activate(answer.duration);
          const ok = get().phase === "active";
          return { ok, text: ok ? answer.message || PAY_TEXT.demoStarted : PAY_TEXT.demoUsed };
        } catch (err) {
          const text = err instanceof Error ? err.message : String(err);
          if (/already used/i.test(text)) {
            if (gen === generation) set({ phase: "expired", canStart: false, endsAt: null, secondsLeft: 0 });
            return { ok: false, text: PAY_TEXT.demoUsed };
          }
          return { ok: false, text };
        } finally {
          if (gen === generation) set({ starting: false });
        }
      },

      tick: () => {
        const { phase, endsAt, secondsLeft } = get();
        if (phase !== "active" || endsAt === null) return;
        const left = remainingMs(endsAt, now());
        if (left <= 0) {
          expire();
          return;
        }
        const seconds = Math.ceil(left / 1000);
        if (seconds !== secondsLeft) set({ secondsLeft: seconds });
      },

      reset: () => {
        generation++;
        stopTicking();
        set(INITIAL);
      },
    };
  });
}
