// The frequency slider's logarithmic scale: 1 Hz at the left end, 20 kHz at the right, every
// octave the same width (432 Hz sits at 61 %, where a linear 0-20000 slider put it at 2 %). The
// slider moves in SLIDER_STEPS positions (0.1 % of frequency apart, under 2 cents); its arrow keys
// still step 1 Hz (Shift: 10 Hz) through the channel card, as the frequency box does.

import { MAX_FREQUENCY_HZ } from "../../dsp/host/model/limits";

/** The slider's lowest frequency (a frequency of 0, "off", sits there too). */
export const SLIDER_MIN_HZ = 1;
/** Positions from 1 Hz to 20 kHz. */
export const SLIDER_STEPS = 10000;

const SPAN = Math.log(MAX_FREQUENCY_HZ / SLIDER_MIN_HZ);

/** A frequency's slider position, 0..SLIDER_STEPS (whole; below 1 Hz: 0). */
export function frequencyToPosition(hz: number): number {
  if (!(hz > SLIDER_MIN_HZ)) return 0;
  const p = Math.round((Math.log(Math.min(hz, MAX_FREQUENCY_HZ) / SLIDER_MIN_HZ) / SPAN) * SLIDER_STEPS);
  return Math.min(SLIDER_STEPS, Math.max(0, p));
}

/** A slider position's frequency in Hz, rounded as the frequency box rounds (2 decimals). */
export function positionToFrequency(position: number): number {
  const p = Math.min(SLIDER_STEPS, Math.max(0, position)) / SLIDER_STEPS;
  const hz = SLIDER_MIN_HZ * Math.exp(p * SPAN);
  return Math.round(Math.min(MAX_FREQUENCY_HZ, hz) * 100) / 100;
}
