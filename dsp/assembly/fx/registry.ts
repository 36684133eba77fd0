// THE ordered list of effects. The chain runs them in this order, and an effect's position here
// is its slot: `wasm` in dsp/host/model/catalogue.ts (tone generators first, then modulation, filters,
// time effects, space). One line per effect, with its catalogue id; tests/unit/dsp/assembly/registry.test.ts
// checks the list against the catalogue. A new effect is a file in fx/, a line here and a
// catalogue entry whose `wasm` is the line's position.

import { Effect } from "./effect";
import { Binaural } from "./binaural";
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

/** One instance of every effect, in slot order. */
export function createEffects(): StaticArray<Effect> {
  return [
    new Binaural(),               // binaural: first, it must see the pure channel mix
    new Supersaw(),               // supersaw
    new Shepard(),                // shepard
    new Harmonizer(),             // harmonizer
    new Noise(),                  // noise
    new Vocoder(),                // vocoder
    new Tremolo(),                // tremolo
    new AmplitudeMod(),           // amplitudeMod
    new RingMod(),                // ringMod
    new IsoPulses(),              // isoPulses
    new Gate(),                   // gate
    new FrequencyShifter(),       // frequencyShifter
    new HarmonicExciter(),        // harmonicExciter
    new Distortion(),             // distortion
    new Bitcrusher(),             // bitcrusher
    new AcidFilter(),             // acidFilter
    new FilterEnvelope(),         // filterEnvelope
    new FilterSweep(),            // filterSweep
    new CombFilter(),             // combFilter
    new Phaser(),                 // phaser
    new Flanger(),                // flanger
    new Chorus(),                 // chorus
    new Glitch(),                 // glitch
    new Granular(),               // granular
    new DarkAmbientGranulator(),  // darkAmbientGranulator
    new PingPong(),               // pingPong
    new Reverb(),                 // reverb
    new Pan360(),                 // pan360
    new StereoPan(),              // stereoPan
    new StereoWidth(),            // stereoWidth
  ];
}
