// Registers the filter, time-based and spatial effects in their chain slots
// (slot numbers = `wasm` in dsp/host/catalogue.ts).

import { Effect } from "./effect";

// eslint-disable-next-line @typescript-eslint/no-unused-vars
export function registerSpaceEffects(slots: StaticArray<Effect | null>): void {
  // Filled in as the effects land.
}
