// The patches the benchmarks render, as AudioState (the same objects the studio would produce).

import { EFFECTS } from "../dsp/host/catalogue";
import { defaultAudioState, type AudioState } from "../dsp/host/state";

/** Base patch (issue 2): sine, square, sawtooth, triangle at 432/528/639/741 Hz, compressor on. */
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

/** Comparison patch (issue 3): base + phaser + chorus + tremolo + pingPong + reverb. */
export function comparisonPatch(): AudioState {
  const s = basePatch();
  for (const id of ["phaser", "chorus", "tremolo", "pingPong", "reverb"]) s.effects[id] = { ...s.effects[id], enabled: true };
  return s;
}
