// A channel's volume: ONE unit from the studio's mixer to the engine. The volume is a linear
// amplitude from 0 to 1 (the mixer shows it as 0-100 %); 0.5, the spec's default, is the nominal
// tone level (gain 1 in the engine), so 1 is +6 dB over it and every step between 0 and 1 is
// heard (before, the engine played min(1, volume / 0.5): everything from 0.5 to 1 was as loud).
// This module holds the one conversion to the engine's gain, the dB figure the mixer shows, the
// mixer's mute and solo, and the migration of presets saved under the old rule. Plain
// TypeScript: the worklet and the engine's host import it.

import { MAX_CHANNEL_GAIN } from "./limits";

/** The default volume (spec 3: 0.5 when absent), the nominal tone level. */
export const DEFAULT_VOLUME = 0.5;

/** Clamps a volume to 0..1 (anything not a finite number is the default). */
export function clampVolume(volume: number | undefined): number {
  if (volume === undefined || !Number.isFinite(volume)) return DEFAULT_VOLUME;
  return Math.min(1, Math.max(0, volume));
}

/** THE conversion: a volume (0..1) to the engine's channel gain (0..MAX_CHANNEL_GAIN), linear. */
export function volumeGain(volume: number | undefined): number {
  return Math.min(MAX_CHANNEL_GAIN, clampVolume(volume) / DEFAULT_VOLUME);
}

/** A volume in dB against the nominal level (0.5 -> 0 dB, 0.25 -> -6.02 dB, 0 -> -Infinity). */
export function volumeDb(volume: number): number {
  return 20 * Math.log10(volumeGain(volume));
}

/** A volume as the mixer shows it: a whole percent. */
export function volumePercent(volume: number): number {
  return Math.round(clampVolume(volume) * 100);
}

/** A percent as the mixer takes it back (clamped to 0..1). */
export function volumeFromPercent(percent: number): number {
  return clampVolume(percent / 100);
}

/** Presets saved before the mixer played every volume above 0.5 at the level of 0.5: loading one,
 *  such a volume becomes 0.5, so it sounds as loud as it did. */
export function legacyVolume(volume: number): number {
  return Math.min(volume, DEFAULT_VOLUME);
}

/** The mixer's switches on a channel: muted, or left out because another channel is soloed. */
export interface MixerFlags {
  muted?: boolean | undefined;
  solo?: boolean | undefined;
}

/** 0 when the mixer silences a channel (muted, or some channel soloed and not this one), else 1. */
export function mixerFactor(c: MixerFlags, anySolo: boolean): number {
  if (c.muted) return 0;
  return anySolo && !c.solo ? 0 : 1;
}

/** True when some channel of the list is soloed. */
export function anySoloed(channels: readonly MixerFlags[]): boolean {
  return channels.some((c) => !!c.solo);
}
