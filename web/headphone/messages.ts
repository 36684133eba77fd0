// Every text of the headphone check: titles, instructions, answer options, results, the offers
// for mono outputs and the summary. Components and tests import them from here, so a change of
// wording is made once. Texts take plain values: beat-alternatives.ts imports its texts from
// here, so nothing here imports it.

import type { Heard, LeftRightResult, MonoAnswer, MonoResult, PolarityAnswer, PolarityResult } from "./answers";

export const CHECK_TITLE = "Headphone check";
export const OPEN_BUTTON = "Headphone check";
export const CLOSE_LABEL = "Close headphone check";
export const CHECK_INTRO = "Four short listening tests for your headphones. Tones play at a quiet level (-20 dBFS): set a comfortable volume first.";

export const STEP_TITLES = ["Left and right", "Mono test", "Polarity", "Level match"] as const;
export const SUMMARY_TITLE = "Results";
export const stepHeading = (index: number): string => `Step ${index + 1} of ${STEP_TITLES.length}: ${STEP_TITLES[index]}`;

export const BACK = "Back";
export const NEXT = "Next";
export const SHOW_RESULTS = "Show results";
export const CHECK_AGAIN = "Check again";
export const DONE = "Done";
export const STOP = "Stop";

/** What the status line says while a part plays ("Playing tone 1…"), and when it ends. */
export const playingPart = (part: number): string => `Playing tone ${part}…`;
export const PLAYING_LOOP = "Playing the alternating tone…";
export const NOT_PLAYING = "";

// Step 1 ---------------------------------------------------------------------------------------
export const LEFT_RIGHT_INTRO =
  "Tone 1 is sent to one ear only and tone 2 to the other. Play each and say where you heard it.";
export const playTone = (part: number): string => `Play tone ${part}`;
export const whereHeard = (part: number): string => `Where did you hear tone ${part}?`;
export const HEARD_LABELS: Record<Heard, string> = {
  left: "Left ear",
  right: "Right ear",
  both: "Both ears",
  nothing: "Nothing",
};
export const LEFT_RIGHT_RESULTS: Record<LeftRightResult, string> = {
  correct: "Left and right are correct.",
  swapped:
    "Left and right are swapped: the left channel plays in your right ear. Turn the headphones around (L on the left ear), or check the adapter or the system's audio settings.",
  mono: "Both tones came from both sides: your output sounds mono. The mono test tells for sure.",
  "left-missing":
    "The left side is missing: tone 1 did not reach you. Check the left earbud, the plug and the system's balance setting.",
  "right-missing":
    "The right side is missing: tone 2 did not reach you. Check the right earbud, the plug and the system's balance setting.",
  silent: "Neither tone was heard. Check that your headphones are connected and the volume is up, then play again.",
  unclear: "These answers do not fit a wiring fault. Play both tones again with both earbuds in.",
};

// Step 2 ---------------------------------------------------------------------------------------
export const MONO_INTRO =
  "Tone 1 is the same in both ears. Tone 2 is the same tone with the right ear's wave upside down: in stereo both are equally loud (tone 2 may sound wider). Where the sound is folded to mono (one earbud, a phone speaker, a mono Bluetooth or hearing-aid mode) the two halves cancel and tone 2 fades away.";
export const PLAY_BOTH = "Play tones 1 and 2";
export const MONO_QUESTION = "How did tone 2 sound next to tone 1?";
export const MONO_LABELS: Record<MonoAnswer, string> = {
  same: "About as loud",
  quieter: "Much quieter, or silent",
  neither: "I heard neither",
};
export const MONO_RESULTS: Record<MonoResult, string> = {
  stereo: "Your output is stereo: binaural beats reach each ear on its own.",
  mono: "Your output is mono.",
  silent: "Nothing was heard. Check the connection and the volume, then play again.",
};
export const BINAURAL_IN_MONO =
  "Binaural beats vanish in mono: each ear has to hear its own frequency, and mixed together they become one plain tone. Isochronic pulses and monaural beats work on any speaker.";
export const USE_ISOCHRONIC = "Use isochronic pulses";
export const USE_MONAURAL = "Use monaural beats";
export const OFFER_LABEL = "Replace binaural beats";

const hz = (v: number): string => `${Number(v.toFixed(2))} Hz`;

export const switchedToIsochronic = (rate: number): string =>
  `Binaural Beat is off and Isochronic Pulses are on at ${hz(rate)}.`;
/** The channels of a monaural beat, as beat-alternatives.ts's MonauralPlan gives them. */
interface MonauralChannels {
  base: number;
  baseFrequency: number;
  target: number;
  frequency: number;
}

export const switchedToMonaural = (plan: MonauralChannels, beat: number): string =>
  `Binaural Beat is off. Channel ${plan.target} plays ${hz(plan.frequency)} beside channel ${plan.base}'s ${hz(plan.baseFrequency)}: a ${hz(beat)} monaural beat.`;

export const ISOCHRONIC_NOT_IN_PLAN = "Your plan does not include Isochronic Pulses (Pro Only), so they could not be switched on.";
export const MONAURAL_NOT_IN_PLAN = "Monaural beats need a second channel, which your plan does not include (Pro Only).";

// Step 3 ---------------------------------------------------------------------------------------
export const POLARITY_INTRO =
  "Two low tones. One reaches both ears in step, the other with one ear's wave upside down. Which sounded fuller, and centred in your head?";
export const POLARITY_QUESTION = "Which tone sounded fuller and centred?";
export const POLARITY_LABELS: Record<PolarityAnswer, string> = {
  first: "Tone 1",
  second: "Tone 2",
  same: "No difference",
};
export const POLARITY_RESULTS: Record<PolarityResult, string> = {
  correct: "Polarity is correct: both ears move in step.",
  inverted:
    "One ear is inverted: the tone sent in step reached you out of step. Check the headphone wiring or adapter; bass and binaural beats sound thin and hollow this way.",
  unclear:
    "No clear difference. Low tones are easiest to judge on headphones in a quiet room; on loudspeakers this test cannot tell.",
};

// Step 4 ---------------------------------------------------------------------------------------
export const BALANCE_INTRO =
  "A tone alternates between your left and right ear. Move the slider until both sound equally loud. Playback and exports use the same balance.";
export const PLAY_ALTERNATING = "Play alternating tone";
export const BALANCE_LABEL = "Balance";
export const RESET_BALANCE = "Centre";
/** What the slider's ends do (its minimum turns the right ear down, its maximum the left). */
export const BALANCE_ENDS = { min: "Left louder", max: "Right louder" } as const;

/** A balance in dB as words: which ear is turned down, and by how much. */
export function balanceText(db: number): string {
  if (!Number.isFinite(db) || Math.abs(db) < 0.05) return "Centred";
  return `${db > 0 ? "Left" : "Right"} ${Math.abs(db).toFixed(1)} dB quieter`;
}

// Summary --------------------------------------------------------------------------------------
export const SUMMARY_ROWS = { leftRight: "Left and right", mono: "Mono test", polarity: "Polarity", balance: "Balance" } as const;
export const NOT_CHECKED = "Not checked";
export const LEFT_RIGHT_SHORT: Record<LeftRightResult, string> = {
  correct: "Correct",
  swapped: "Swapped",
  mono: "Mono",
  "left-missing": "Left side missing",
  "right-missing": "Right side missing",
  silent: "Nothing heard",
  unclear: "Unclear",
};
export const MONO_SHORT: Record<MonoResult, string> = { stereo: "Stereo", mono: "Mono", silent: "Nothing heard" };
export const POLARITY_SHORT: Record<PolarityResult, string> = { correct: "Correct", inverted: "One ear inverted", unclear: "Unclear" };
