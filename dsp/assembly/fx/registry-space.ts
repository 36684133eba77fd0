// Registers the filter, time-based and spatial effects in their chain slots
// (slot numbers = `wasm` in dsp/host/catalogue.ts).

import { Effect } from "./effect";
import { AcidFilter } from "./acidFilter";
import { FilterEnvelope } from "./filterEnvelope";
import { FilterSweep } from "./filterSweep";
import { CombFilter } from "./combFilter";
import { Phaser } from "./phaser";
import { Flanger } from "./flanger";
import { Chorus } from "./chorus";
import { Glitch } from "./glitch";
import { Granular } from "./granular";
import { DarkAmbientGranulator } from "./darkAmbientGranulator";
import { PingPong } from "./pingPong";
import { Reverb } from "./reverb";
import { Pan360 } from "./pan360";
import { StereoPan } from "./stereoPan";
import { StereoWidth } from "./stereoWidth";

export function registerSpaceEffects(slots: StaticArray<Effect | null>): void {
  slots[15] = new AcidFilter();
  slots[16] = new FilterEnvelope();
  slots[17] = new FilterSweep();
  slots[18] = new CombFilter();
  slots[19] = new Phaser();
  slots[20] = new Flanger();
  slots[21] = new Chorus();
  slots[22] = new Glitch();
  slots[23] = new Granular();
  slots[24] = new DarkAmbientGranulator();
  slots[25] = new PingPong();
  slots[26] = new Reverb();
  slots[27] = new Pan360();
  slots[28] = new StereoPan();
  slots[29] = new StereoWidth();
}
