// The onboarding tutorial (spec/accounts.md section 2): seven steps (welcome, play, frequency,
// waveform, effects, export, complete) with Previous and Next (the last reads Complete), a close
// button that skips it, and Restart Tutorial once it was skipped or completed. Remembered per
// browser in localStorage. Pure state and texts; TutorialPanel.tsx draws them.
//
// Who sees it first: signed-in visitors (free, demo or Pro) on their first studio visit in this
// browser. Anonymous visitors do not: their studio is locked behind the sign-in card, and a tour
// of controls they cannot use would only stand between them and signing in; they get it once
// signed in.

import type { SectionId } from "../state/sections";

export const TUTORIAL_STORAGE_KEY = "tone-studio:tutorial";

export interface TutorialStep {
  id: "welcome" | "play" | "frequency" | "waveform" | "effects" | "export" | "complete";
  title: string;
  body: string;
  /** CSS selector of the part of the studio the step is about (highlighted; "Show me" goes there). */
  target?: string;
  /** The studio section (tab) the target is in: opened when the step shows. */
  section?: SectionId;
}

export const TUTORIAL_STEPS: readonly TutorialStep[] = [
  {
    id: "welcome",
    title: "Welcome to Tone Studio",
    body:
      "This short tour shows the five things you need: playing sound, setting a frequency, choosing a waveform, " +
      "layering effects and exporting. Move with Next and Previous, or close it to skip; Restart Tutorial brings it back.",
  },
  {
    id: "play",
    title: "Play and stop",
    body:
      "Play Audio, in the transport bar that stays in view (at the bottom of a phone's screen), starts every channel " +
      "that is switched on; Stop Audio fades it out. Space does the same when focus is not on a button or in a field. " +
      "The bar shows the time played and left, and playback stops by itself after its duration.",
    target: ".transport button.play",
  },
  {
    id: "frequency",
    title: "Set a frequency",
    body:
      "In the Channels tab, type any frequency from 0 to 20000 Hz in a channel's box, or drag its slider (1 Hz to 20 kHz, " +
      "every octave the same width). The Up and Down arrows change it by 1 Hz, and by 10 Hz with Shift; Ctrl+F jumps to " +
      "channel 1. The switch turns a channel on or off; Volume, Mute and Solo mix the channels.",
    target: ".channel-card",
    section: "channels",
  },
  {
    id: "waveform",
    title: "Choose a waveform",
    body:
      "Sine is the pure tone; square, sawtooth and triangle add harmonics (band-limited, so no aliasing). The waveform " +
      "display draws what you hear while it plays, and Show spectrogram adds its frequencies over time.",
    target: ".panel.displays",
  },
  {
    id: "effects",
    title: "Layer effects",
    body:
      "The Effects tab: each card has a switch and a value. Switch several on to layer them; changes apply live while " +
      "the sound plays. The ones that are on are listed at the top with an Off button; filter by kind or search by name. " +
      "Effects marked Pro Only come with a Pro plan.",
    target: ".panel.effects",
    section: "effects",
  },
  {
    id: "export",
    title: "Export and share",
    body:
      "Export WAV, in the transport bar (under More on a phone), renders the sound for the set duration at 48 kHz, " +
      "16-bit stereo, faster than real time, and saves the file. Share Preset copies a link to these settings. The " +
      "Quality Test, in the Levels tab, lets you hear the render first.",
    target: ".transport",
  },
  {
    id: "complete",
    title: "You're ready",
    body:
      "That's the tour. Shift+? opens the keyboard and accessibility help at any time, and Restart Tutorial runs " +
      "this tour again.",
  },
];

export const LAST_STEP = TUTORIAL_STEPS.length - 1;

/** open: showing (also the state of a browser that never finished or skipped it);
 *  skipped / completed: closed, with Restart Tutorial in its place. */
export type TutorialStatus = "open" | "skipped" | "completed";

export interface TutorialState {
  status: TutorialStatus;
  step: number;
}

export type TutorialAction =
  | { type: "next" }
  | { type: "previous" }
  | { type: "skip" }
  | { type: "restart" };

export function tutorialReducer(state: TutorialState, action: TutorialAction): TutorialState {
  switch (action.type) {
    case "restart":
      return { status: "open", step: 0 };
    case "next":
      if (state.status !== "open") return state;
      return state.step >= LAST_STEP ? { status: "completed", step: 0 } : { ...state, step: state.step + 1 };
    case "previous":
      if (state.status !== "open") return state;
      return { ...state, step: Math.max(0, state.step - 1) };
    case "skip":
      return state.status === "open" ? { status: "skipped", step: 0 } : state;
  }
}

/** The button that moves forward: Next, and Complete on the last step. */
export function nextLabel(step: number): "Next" | "Complete" {
  return step >= LAST_STEP ? "Complete" : "Next";
}

/** Whether a visitor at this gate level gets the tutorial on a first visit (see the header). */
export function tutorialAvailable(level: string): boolean {
  return level === "free" || level === "demo" || level === "full";
}

type StorageLike = Pick<Storage, "getItem" | "setItem">;

function storage(): StorageLike | null {
  try {
    return typeof localStorage === "undefined" ? null : localStorage;
  } catch {
    return null; // storage blocked: the tutorial shows, and is not remembered
  }
}

/** The remembered outcome ("skipped" or "completed"); open when there is none (first visit). */
export function loadTutorialState(store: StorageLike | null = storage()): TutorialState {
  let saved: string | null;
  try {
    saved = store?.getItem(TUTORIAL_STORAGE_KEY) ?? null;
  } catch {
    saved = null;
  }
  return { status: saved === "skipped" || saved === "completed" ? saved : "open", step: 0 };
}

/** Remembers a skip or completion (an open tour is not remembered: a reload starts it again). */
export function saveTutorialState(state: TutorialState, store: StorageLike | null = storage()): void {
  if (state.status !== "skipped" && state.status !== "completed") return;
  try {
    store?.setItem(TUTORIAL_STORAGE_KEY, state.status);
  } catch {
    // Full or blocked storage: the outcome holds until the page is reloaded.
  }
}
