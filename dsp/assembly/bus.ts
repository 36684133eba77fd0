// State shared by the engine and the effects: sample rate, the four channels, the seeded RNG.
// Effects that follow the channels (shepard, supersaw, vocoder, harmonizer, binaural) read
// `channels` here; nothing else in the engine is global.

import { Channel } from "./osc/channel";
import { CHANNELS } from "./lib/constants";

export let sampleRate: f64 = 48000.0;
export const channels = new StaticArray<Channel>(CHANNELS);

export function setSampleRate(fs: f64): void {
  sampleRate = fs;
}

export function initChannels(): void {
  for (let i = 0; i < CHANNELS; i++) channels[i] = new Channel();
}

/** Number of channels that sound (enabled, above 0 Hz). */
export function activeChannelCount(): i32 {
  let n = 0;
  for (let i = 0; i < CHANNELS; i++) if (channels[i].active) n++;
  return n;
}

/** The mixer's per-channel tone scale for the current block (0.15 / active channels, smoothed).
 *  Effects that generate tones from the channels use it so they sit at the channels' level. */
export let toneScale: f32 = 0.0;

export function setToneScale(v: f32): void {
  toneScale = v;
}
