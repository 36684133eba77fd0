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
