// The patches the benchmarks render, as AudioState (the same objects the studio would produce).

import { EFFECTS } from "../dsp/host/model/catalogue";
import type { SoundtrackAudio } from "../dsp/host/model/soundtrack";
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
  "noise-spectrum": { kind: "noise", colour: "pink", amp: 20, spectrum: Array.from({ length: 32 }, (_, k) => 12 - (24 * k) / 31) },
  noisepulse: { kind: "noisepulse", pulse: 4, amp: 20 },
  noisebeat: { kind: "noisebeat", beat: 6, amp: 20 },
  mix: { kind: "mix", amp: 80 },
  mixpulse: { kind: "mixpulse", pulse: 8, amp: 50 },
  mixam: { kind: "mixam", rate: 2.2, amp: 70, shape: "cos", start: 0, duty: 0.5, attack: 0.5, release: 0.5, edge: 3 },
  mixspin: { kind: "mixspin", width: 400, rate: 6, amp: 40 },
  mixbeat: { kind: "mixbeat", beat: 6, amp: 45 },
};

/** A minute of stereo noise at 48 kHz as a soundtrack (looping with SBaGen's 1 s cross-fade), for
 *  the mix voices' rows. */
export function benchSoundtrack(): SoundtrackAudio {
  const FS = 48000;
  const frames = 60 * FS;
  const pcm = new Int16Array(frames * 2);
  let x = 12345;
  for (let i = 0; i < pcm.length; i++) {
    x = (x * 1103515245 + 12345) & 0x7fffffff;
    pcm[i] = (x >> 15) - 32768;
  }
  return { name: "noise.wav", rate: FS, frames, pcm, loopStart: 0, loopEnd: frames, loopFade: FS };
}

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
