// The studio's hint bar (spec/studio.md sections 2 and 9): a message that changes every 5 s,
// a dismiss button that starts drawing attention after 10 s, and the hint texts. HintRotation is
// the timing without React (timers injectable, unit-tested with fake timers): rotation pauses
// while the pointer or keyboard focus is on the bar; the attention clock runs from when the bar
// appeared and is not reset by pauses.

export const HINT_INTERVAL_MS = 5000;
export const DISMISS_ATTENTION_MS = 10_000;
/** Dismissal lasts for the visit (this tab's session): hints are back on the next visit. */
export const HINTS_DISMISSED_KEY = "tone-studio:hints-dismissed";

export const STUDIO_HINTS: readonly string[] = [
  "Press Space to play or stop; shortcuts wait while you type in a field.",
  "In a frequency box, the Up and Down arrows step 1 Hz; hold Shift for 10 Hz.",
  "Ctrl+F jumps straight to channel 1's frequency.",
  "Shift+? opens the keyboard and accessibility help.",
  "Click the logo for a random sound.",
  "Show the spectrogram to see every partial of the sound over time.",
  "The Quality Test plays 5 seconds of your sound as rendered, then as a low-bitrate stream would deliver it.",
  "Playback stops by itself after the duration; type it as HH:MM:SS.",
];

interface Timers {
  setInterval(fn: () => void, ms: number): unknown;
  clearInterval(handle: unknown): void;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

const realTimers: Timers = {
  setInterval: (fn, ms) => setInterval(fn, ms),
  clearInterval: (h) => clearInterval(h as ReturnType<typeof setInterval>),
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
};

export interface HintRotationEvents {
  onIndex(index: number): void;
  onAttention(): void;
}

export class HintRotation {
  private index = 0;
  private rotating: unknown = null;
  private attention: unknown = null;
  private paused = false;
  private active = false;
  private readonly count: number;
  private readonly events: HintRotationEvents;
  private readonly timers: Timers;

  constructor(count: number, events: HintRotationEvents, timers: Timers = realTimers) {
    this.count = count;
    this.events = events;
    this.timers = timers;
  }

  get current(): number {
    return this.index;
  }

  /** The bar is on screen: rotation and the attention clock start. */
  start(): void {
    this.stop();
    this.active = true;
    this.attention = this.timers.setTimeout(() => {
      this.attention = null;
      this.events.onAttention();
    }, DISMISS_ATTENTION_MS);
    if (!this.paused) this.startRotating();
  }

  /** Pointer or focus on the bar: the message stays while it is being read. */
  pause(): void {
    this.paused = true;
    this.stopRotating();
  }

  /** A fresh 5 s for the message on screen, then rotation as before. */
  resume(): void {
    if (!this.paused) return;
    this.paused = false;
    if (this.active) this.startRotating();
  }

  /** Gone (dismissed or unmounted): no timer is left. */
  stop(): void {
    this.active = false;
    this.stopRotating();
    if (this.attention !== null) this.timers.clearTimeout(this.attention);
    this.attention = null;
  }

  private startRotating(): void {
    this.stopRotating();
    if (this.count < 2) return;
    this.rotating = this.timers.setInterval(() => {
      this.index = (this.index + 1) % this.count;
      this.events.onIndex(this.index);
    }, HINT_INTERVAL_MS);
  }

  private stopRotating(): void {
    if (this.rotating !== null) this.timers.clearInterval(this.rotating);
    this.rotating = null;
  }
}
