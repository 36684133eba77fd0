// The effects by kind, for the effects grid's filter: every catalogue effect in exactly one kind
// (a unit test checks it against the catalogue).

export const EFFECT_KINDS = [
  { id: "brainwave", label: "Brainwave", effects: ["binaural", "isoPulses", "amplitudeMod"] },
  {
    id: "modulation",
    label: "Modulation",
    effects: ["tremolo", "ringMod", "chorus", "flanger", "phaser", "pan360", "stereoPan", "frequencyShifter", "shepard"],
  },
  { id: "space", label: "Space", effects: ["reverb", "pingPong", "stereoWidth", "darkAmbientGranulator", "granular"] },
  { id: "texture", label: "Texture", effects: ["noise", "supersaw", "glitch", "bitcrusher", "distortion", "harmonizer", "vocoder", "harmonicExciter"] },
  { id: "filters", label: "Filters & dynamics", effects: ["filterSweep", "filterEnvelope", "acidFilter", "combFilter", "gate"] },
] as const;

export type EffectKind = (typeof EFFECT_KINDS)[number]["id"];

/** The kind of an effect id (undefined for an id no kind lists). */
export function kindOf(id: string): EffectKind | undefined {
  return EFFECT_KINDS.find((k) => (k.effects as readonly string[]).includes(id))?.id;
}

/** Whether an effect matches a search text (its name or description, case-insensitive). */
export function matchesSearch(def: { name: string; description: string }, text: string): boolean {
  const q = text.trim().toLowerCase();
  return q === "" || def.name.toLowerCase().includes(q) || def.description.toLowerCase().includes(q);
}
