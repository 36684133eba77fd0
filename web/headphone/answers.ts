// The headphone check's answer logic: what the listener's answers say about the output. Pure, so
// every combination is unit-tested; the texts for each result are in messages.ts.
//
// Step 1 sends tone 1 to the left channel only and tone 2 to the right only, without telling the
// listener which is which. Step 2 plays a tone in phase and then in antiphase: folded to mono the
// antiphase tone cancels (signals.ts). Step 3 plays a low tone in phase and then with one ear
// inverted: the one that sounds fuller and centred is the one that arrived in phase.

/** Where the listener heard a tone. */
export const HEARD = ["left", "right", "both", "nothing"] as const;
export type Heard = (typeof HEARD)[number];

export type LeftRightResult = "correct" | "swapped" | "mono" | "left-missing" | "right-missing" | "silent" | "unclear";

/** How tone 2 (antiphase) sounded against tone 1 (in phase). */
export const MONO_ANSWERS = ["same", "quieter", "neither"] as const;
export type MonoAnswer = (typeof MONO_ANSWERS)[number];
export type MonoResult = "stereo" | "mono" | "silent";

/** Which of the two low tones sounded fuller and centred. */
export const POLARITY_ANSWERS = ["first", "second", "same"] as const;
export type PolarityAnswer = (typeof POLARITY_ANSWERS)[number];
export type PolarityResult = "correct" | "inverted" | "unclear";

export interface CheckAnswers {
  /** Where tone 1 (sent to the left channel) was heard. */
  tone1?: Heard;
  /** Where tone 2 (sent to the right channel) was heard. */
  tone2?: Heard;
  mono?: MonoAnswer;
  polarity?: PolarityAnswer;
}

export interface CheckResults {
  leftRight: LeftRightResult | null;
  mono: MonoResult | null;
  polarity: PolarityResult | null;
}

/** Step 1: the channels are correct, swapped, folded together, or one side is missing. */
export function judgeLeftRight(tone1: Heard, tone2: Heard): LeftRightResult {
  if (tone1 === "nothing" && tone2 === "nothing") return "silent";
  // A tone heard nowhere: that channel does not reach the ears, wherever the other one went.
  if (tone1 === "nothing") return "left-missing";
  if (tone2 === "nothing") return "right-missing";
  if (tone1 === "left" && tone2 === "right") return "correct";
  if (tone1 === "right" && tone2 === "left") return "swapped";
  if (tone1 === "both" && tone2 === "both") return "mono";
  // Both in the same ear, or one centred and one not: no wiring fault explains that.
  return "unclear";
}

export function judgeMono(answer: MonoAnswer): MonoResult {
  return answer === "same" ? "stereo" : answer === "quieter" ? "mono" : "silent";
}

export function judgePolarity(answer: PolarityAnswer): PolarityResult {
  return answer === "first" ? "correct" : answer === "second" ? "inverted" : "unclear";
}

/** Every step's result so far (null where the step was not answered). */
export function checkResults(a: CheckAnswers): CheckResults {
  return {
    leftRight: a.tone1 && a.tone2 ? judgeLeftRight(a.tone1, a.tone2) : null,
    mono: a.mono ? judgeMono(a.mono) : null,
    polarity: a.polarity ? judgePolarity(a.polarity) : null,
  };
}

/** Whether the answers say the output is mono, so binaural beats cannot work. The mono test
 *  decides when it was answered (on loudspeakers both ears hear both sides, so step 1 alone can
 *  say "both" for a stereo output); without it, step 1's "both ears, both tones" is taken. */
export function outputIsMono(r: CheckResults): boolean {
  return r.mono !== null ? r.mono === "mono" : r.leftRight === "mono";
}
