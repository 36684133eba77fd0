// Registers the tone-generating and modulation effects in their chain slots
// (slot numbers = `wasm` in dsp/host/catalogue.ts).

import { Effect } from "./effect";
import { Supersaw } from "./supersaw";
import { Shepard } from "./shepard";
import { Harmonizer } from "./harmonizer";
import { Noise } from "./noise";
import { Vocoder } from "./vocoder";
import { Tremolo } from "./tremolo";
import { AmplitudeMod } from "./amplitudeMod";
import { RingMod } from "./ringMod";
import { IsoPulses } from "./isoPulses";
import { Gate } from "./gate";
import { FrequencyShifter } from "./frequencyShifter";
import { HarmonicExciter } from "./harmonicExciter";
import { Distortion } from "./distortion";
import { Bitcrusher } from "./bitcrusher";

export function registerVoiceEffects(slots: StaticArray<Effect | null>): void {
  slots[1] = new Supersaw();
  slots[2] = new Shepard();
  slots[3] = new Harmonizer();
  slots[4] = new Noise();
  slots[5] = new Vocoder();
  slots[6] = new Tremolo();
  slots[7] = new AmplitudeMod();
  slots[8] = new RingMod();
  slots[9] = new IsoPulses();
  slots[10] = new Gate();
  slots[11] = new FrequencyShifter();
  slots[12] = new HarmonicExciter();
  slots[13] = new Distortion();
  slots[14] = new Bitcrusher();
}
