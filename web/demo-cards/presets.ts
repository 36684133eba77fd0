// The landing section's four demo cards (spec/studio.md section 2), each an AudioState preset:
// the spec's frequency and waveform, plus effects from the spec's list chosen to suit the card
// (the spec names the list, not which card has which; among them the cards use every one).
// A card plays through its own engine (web/audio/demo-player.ts), so its state never touches the
// studio's.

import { defaultAudioState, type AudioState, type EffectState, type Waveform } from "../../dsp/host/schema/state";

export type DemoCardIcon = "bolt" | "lotus" | "globe" | "bell";

export interface DemoCardPreset {
  id: string;
  title: string;
  description: string;
  /** Which drawn icon the card shows (DemoCards.tsx). */
  icon: DemoCardIcon;
  /** The card's main tone. */
  frequency: number;
  waveform: Waveform;
  state: AudioState;
}

/** Seconds a card plays before it stops by itself. */
export const DEMO_CARD_SECONDS = 300;

type EffectPatch = Partial<EffectState> & { value: number };

/** An AudioState with `tones` on channels 1.. (the rest off) and `effects` switched on. */
function presetState(tones: readonly [number, Waveform][], effects: Record<string, EffectPatch>): AudioState {
  const state = defaultAudioState();
  state.channels = state.channels.map((c, i) => {
    const tone = tones[i];
    return tone ? { ...c, frequency: tone[0], waveform: tone[1], enabled: true } : { ...c, frequency: 0, enabled: false };
  });
  for (const [id, patch] of Object.entries(effects)) {
    state.effects[id] = { ...state.effects[id], ...patch, enabled: true };
  }
  state.duration = DEMO_CARD_SECONDS;
  return state;
}

/** A card whose main tone (frequency, waveform) is its first tone. */
function card(
  id: string, title: string, icon: DemoCardIcon, description: string,
  tones: readonly [number, Waveform][], effects: Record<string, EffectPatch>,
): DemoCardPreset {
  const [frequency, waveform] = tones[0];
  return { id, title, description, icon, frequency, waveform, state: presetState(tones, effects) };
}

export const DEMO_CARDS: readonly DemoCardPreset[] = [
  card("gamma-focus", "Gamma Focus", "bolt",
    "A 40 Hz gamma tone. The harmonizer lifts it into a range small speakers can play, and a slow flanger keeps it moving.",
    [[40, "square"]],
    { harmonizer: { value: 60 }, ringMod: { value: 15 }, flanger: { value: 0.2 } }),
  card("theta-meditation", "Theta Meditation", "lotus",
    "A soft 6 Hz theta pulse over a bed of white noise that swells at the same rate and drifts slowly around your head.",
    [[6, "square"]],
    { noise: { value: 25, type: "white" }, amplitudeMod: { value: 6 }, phaser: { value: 0.2 }, pan360: { value: 0.1 } }),
  card("schumann-resonance", "Schumann Resonance", "globe",
    "The Earth's 7.83 Hz resonance as an endlessly rising Shepard cloud, pulsing at the same rate.",
    [[7.83, "sawtooth"]],
    { shepard: { value: 0.2, direction: "up", octaves: 6 }, isoPulses: { value: 7.8 }, chorus: { value: 40 } }),
  card("solfeggio", "Solfeggio 852 + 417 + 528", "bell",
    "Three solfeggio tones, 852, 417 and 528 Hz, as a gentle chord with a slow shimmer, set a little to the right.",
    [[852, "sine"], [417, "sine"], [528, "sine"]],
    { tremolo: { value: 1.5 }, chorus: { value: 30 }, stereoPan: { value: 25 } }),
];

export const DEMO_CARDS_BY_ID: ReadonlyMap<string, DemoCardPreset> = new Map(DEMO_CARDS.map((c) => [c.id, c]));
