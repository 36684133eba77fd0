// Registers the tone-generating and modulation effects in their chain slots
// (slot numbers = `wasm` in dsp/host/catalogue.ts).

import { Effect } from "./effect";
import { Tremolo } from "./tremolo";

export function registerVoiceEffects(slots: StaticArray<Effect | null>): void {
  slots[6] = new Tremolo();
}
