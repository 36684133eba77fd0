// Writes a session that plays voices (an SBaGen schedule read by readSbgVoices, dsp/host/sbg/voices.ts)
// back as an SBaGen schedule: one named tone-set per distinct set of voices, one time line per step,
// NOW-relative. With -F 10 every change between lines is a cut (the studio's hold step) and a step
// reached by a linear ramp is a `->` slide from the line before, so the reader gives the same steps
// back: the reader's own sessions keep every linear ramp between voices of one kind and put a bell
// only on the step where it strikes, which is what SBaGen does with such lines. Channels and effects
// are not written (a warning says so when one is on); times are whole seconds.

import { parsePreset, type PresetData } from "../schema/preset";
import type { Voice, VoiceSlots } from "../model/voices";
import { AUTO_NAME, NAME, WRITTEN_FADE_MS, clock, num, type SbgIssue } from "./model";

/** Envelopes, spin paths and spectra as SBaGenX's customNN, spinNN and noiseNN definitions
 *  (linear, e=1, and dB values: the reader gives the same numbers back). */
class Definitions {
  private names = new Map<string, string>();
  private counts = { custom: 0, spin: 0, noise: 0 };
  prefix(family: "custom" | "spin" | "noise", values: number[] | undefined): string {
    if (!values) return "";
    const key = `${family}:${family === "noise" ? "" : "e=1 "}${values.map(num).join(" ")}`;
    let name = this.names.get(key);
    if (!name) this.names.set(key, (name = `${family}${String(this.counts[family]++).padStart(2, "0")}`));
    return `${name}:`;
  }
  lines(): string[] {
    return [...this.names].map(([key, name]) => `${name}: ${key.slice(key.indexOf(":") + 1)}`);
  }
}
type Envelopes = Definitions;

const wave = (w: string | undefined) => (w ? `${w}:` : "");

function voiceText(v: Voice | null, envs: Envelopes): string {
  if (!v) return "-";
  const signed = (x: number) => `${x < 0 ? "-" : "+"}${num(Math.abs(x))}`;
  switch (v.kind) {
    case "tone": return `${wave(v.waveform)}${num(v.carrier)}/${num(v.amp)}`;
    case "binaural": return `${wave(v.waveform)}${envs.prefix("custom", v.envelope)}${num(v.carrier)}${signed(v.beat)}/${num(v.amp)}`;
    case "isochronic": return `${wave(v.waveform)}${envs.prefix("custom", v.envelope)}${num(v.carrier)}@${num(v.pulse)}/${num(v.amp)}`;
    case "noise": return v.spectrum ? `${envs.prefix("noise", v.spectrum).slice(0, -1)}/${num(v.amp)}` : `${v.colour}/${num(v.amp)}`;
    case "spin": {
      const base = v.spectrum ? `${envs.prefix("noise", v.spectrum)}spin:` : `${{ pink: "", brown: "b", white: "w" }[v.colour]}spin:`;
      return `${envs.prefix("spin", v.path)}${base}${num(v.width)}${signed(v.rate)}/${num(v.amp)}`;
    }
    case "noisepulse": return `${envs.prefix("custom", v.envelope)}${envs.prefix("noise", v.spectrum)}noisepulse:${num(v.pulse)}/${num(v.amp)}`;
    case "noisebeat": return `${envs.prefix("custom", v.envelope)}${envs.prefix("noise", v.spectrum)}noisebeat:${signed(v.beat).replace(/^\+/, "")}/${num(v.amp)}`;
    case "bell": return `bell+${num(v.carrier)}/${num(v.amp)}`;
    case "mix": return `mix/${num(v.amp)}`;
    case "mixpulse": return `mixpulse:${num(v.pulse)}/${num(v.amp)}`;
    case "mixspin": return `mixspin:${num(v.width)}${signed(v.rate)}/${num(v.amp)}`;
    case "mixbeat": return `mixbeat:${num(v.beat)}/${num(v.amp)}`;
    case "mixam": {
      const floor = `f=${num(Math.round((1 - v.amp / 100) * 10000) / 10000)}`;
      const pulse = v.shape === "pulse" ? `:d=${num(v.duty)}:a=${num(v.attack)}:r=${num(v.release)}:e=${num(v.edge)}` : "";
      return `mixam:${num(v.rate)}:m=${v.shape}:s=${num(v.start)}${pulse}:${floor}`;
    }
  }
}

const setText = (s: VoiceSlots, envs: Envelopes) => (s.length ? s.map((v) => voiceText(v, envs)).join(" ") : "-");

/** True when the session plays voices (then it is written as voices). */
export function hasVoices(s: PresetData): boolean {
  return !!s.voices?.length || !!s.timeline?.steps.some((x) => x.voices !== undefined);
}

/** A voice session as an SBaGen schedule. */
export function voicesToSbg(input: PresetData): { text: string; warnings: SbgIssue[] } {
  const checked = parsePreset(input);
  if (!checked.ok) throw new TypeError(`Not a session: ${checked.error}`);
  const session = checked.state;
  const warnings: SbgIssue[] = [];
  if (session.channels.some((c) => c.enabled) || Object.values(session.effects).some((e) => e.enabled)) {
    warnings.push({ line: 0, message: "the channels and effects are left out: the schedule is written from the session's voices" });
  }
  // Each step's whole set (a step without voices keeps the set before it); 0:00 first.
  const steps = [...(session.timeline?.steps ?? [])];
  if (!steps.length || steps[0].at > 0) steps.unshift({ at: 0, ramp: "hold", voices: session.voices ?? [] });
  let current: VoiceSlots = session.voices ?? [];
  const sets = steps.map((s) => (current = s.voices ?? current));

  const envs = new Definitions();
  const byName = new Map<string, string>();
  let auto = 0;
  const names = steps.map((s, i) => {
    const text = setText(sets[i], envs);
    const label = s.label && NAME.test(s.label) && !AUTO_NAME.test(s.label) && s.label !== "NOW" ? s.label : null;
    if (label && (byName.get(label) ?? text) === text) {
      byName.set(label, text);
      return label;
    }
    if (s.label) warnings.push({ line: i, message: `the name '${s.label}' is written under another name (an SBaGen name for one tone-set only)` });
    for (const [name, known] of byName) if (AUTO_NAME.test(name) && known === text) return name;
    const name = `auto-${++auto}`;
    byName.set(name, text);
    return name;
  });

  const out = ["## Session exported from the tone studio (voices)", `## ${clock(session.duration)}, ${steps.length} steps`, "", "-SE", `-F ${WRITTEN_FADE_MS}`];
  const track = session.soundtrack;
  // A name with spaces cannot be one SBaGen word: the option is written, commented out, for the user to fix.
  if (track) out.push(`${/[\s#]/.test(track.name) ? "## " : ""}-m ${track.name}`);
  out.push("");
  out.push(...envs.lines());
  for (const [name, text] of byName) out.push(`${name}: ${text}`);
  out.push("");
  let prev = 0;
  steps.forEach((s, i) => {
    const at = Math.max(prev, Math.round(s.at));
    if (at !== s.at) warnings.push({ line: i, message: `step ${i} at ${s.at} s is written at ${clock(at)} (SBaGen times are whole seconds)` });
    prev = at;
    const next = steps[i + 1];
    if (next && next.ramp !== "hold" && next.ramp !== "linear") warnings.push({ line: i + 1, message: `step ${i + 1}'s ${next.ramp} ramp is written as a linear slide` });
    out.push(`${at === 0 ? "NOW" : `NOW+${clock(at)}`} == ${names[i]}${next && next.ramp !== "hold" ? " ->" : ""}`);
  });
  if (session.duration > prev) out.push(`NOW+${clock(session.duration)} == ${names[names.length - 1]}`);
  return { text: out.join("\n") + "\n", warnings };
}
