// The patches the benchmarks render, as AudioState (the same objects the studio would produce).

import { EFFECTS } from "../dsp/host/model/catalogue";
import { defaultAudioState, type AudioState } from "../dsp/host/schema/state";

/** Base patch: sine, square, sawtooth, triangle at 432/528/639/741 Hz, compressor on. */
export function basePatch(): AudioState {
  const s = defaultAudioState();
  s.channels[0].waveform = "sine";
  s.channels[1].waveform = "square";
  s.channels[2].waveform = "sawtooth";
  s.channels[3].waveform = "triangle";
  return s;
}

/** Base patch with every catalogue effect on at its default. */
export function allEffectsPatch(): AudioState {
  const s = basePatch();
  for (const d of EFFECTS) s.effects[d.id] = { ...s.effects[d.id], enabled: true };
  return s;
}

/** Comparison patch: base + phaser + chorus + tremolo + pingPong + reverb. */
export function comparisonPatch(): AudioState {
  const s = basePatch();
  for (const id of ["phaser", "chorus", "tremolo", "pingPong", "reverb"]) s.effects[id] = { ...s.effects[id], enabled: true };
  return s;
}

/** Base patch whose four channels all glide for its whole length (a session timeline with one
 *  12-hour exponential ramp), so every block takes the engine's per-sample timeline path. */
export function sweepPatch(): AudioState {
  const s = basePatch();
  s.timeline = {
    steps: [{ at: 43200, ramp: "exponential", channels: [{ id: 1, frequency: 4320 }, { id: 2, frequency: 52.8 }, { id: 3, frequency: 6390 }, { id: 4, frequency: 74.1 }] }],
  };
  return s;
}
