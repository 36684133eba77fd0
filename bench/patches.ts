// The patches the benchmarks render, as AudioState (the same objects the studio would produce).

import { EFFECTS } from "../dsp/host/model/catalogue";
import type { Voice } from "../dsp/host/model/voices";
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

/** Silent voices: every channel off and one voice slot at amp 0 (the cost of the voice path with
 *  nothing to play is in the base each voice row subtracts). */
export function silentVoicesPatch(): AudioState {
  const s = defaultAudioState();
  s.channels = s.channels.map((c) => ({ ...c, enabled: false }));
  s.voices = [{ kind: "tone", carrier: 100, amp: 0 }];
  return s;
}

/** One voice of each kind, as bench/voice-cost.ts measures them (each alone on the silent base). */
export const BENCH_VOICES: Record<string, Voice> = {
  tone: { kind: "tone", carrier: 200, amp: 20 },
  binaural: { kind: "binaural", carrier: 200, beat: 10, amp: 20 },
  isochronic: { kind: "isochronic", carrier: 300, pulse: 10, amp: 20 },
  noise: { kind: "noise", colour: "pink", amp: 20 },
  spin: { kind: "spin", colour: "pink", width: 300, rate: 0.2, amp: 20 },
};

/** A 16-voice binaural session with pink noise: sixteen pairs, each with its own carrier and beat
 *  (SBaGen's largest tone-set), the heaviest sound an SBaGen schedule plays. */
export function voicesPatch(): AudioState {
  const s = silentVoicesPatch();
  s.voices = [
    ...Array.from({ length: 16 }, (_, i): Voice => ({ kind: "binaural", carrier: 100 + 37 * i, beat: 1 + 0.7 * i, amp: 5 })),
    { kind: "noise", colour: "pink", amp: 15 },
  ];
  return s;
}
