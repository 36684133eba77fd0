// Writes a studio session as an SBaGen schedule (.sbg) that SBaGen itself accepts (a session that
// plays voices is written by dsp/host/sbg/write-voices.ts instead): -SE (play from the first line to the last), -F 10 (a change between lines takes 10 ms: the studio's jump),
// one tone-set definition per distinct state, and one time line per timeline step, NOW-relative,
// with '->' where the next step ramps. The mapping is in dsp/host/sbg/model.ts; what .sbg cannot
// say is reported as a warning (line 0 for the whole session, else the step's number).
//
// - Non-sine waveforms are written as sine tones; effects other than the binaural beat, the
//   isochronic pulses and the noise are left out; eased and exponential ramps become linear
//   slides; steps are rounded to whole seconds (SBaGen's resolution).
// - A channel that is silent next to a ramp is written at volume 0 on the pitch the studio fades
//   it at (dsp/host/schema/timeline.ts pitchTrack), since SBaGen would otherwise fade it at the other
//   end's pitch.
// - Tone-sets are named after the steps' labels when they are SBaGen names (a letter, then
//   letters, digits, '_' or '-'); other steps get auto-N, which the reader turns back into no label.
// - When the session lasts longer than its last step, a last line at its end repeats the last
//   tone-set (-E stops there).

import { EFFECTS } from "../model/catalogue";
import { PRESET_VERSION, parsePreset, type PresetData } from "../schema/preset";
import { engineGain, pitchTrack, resolveTimeline, type ResolvedStep } from "../schema/timeline";
import {
  AUTO_NAME, NAME, SBG_EFFECTS, WRITTEN_FADE_MS, ampOf, clock, num, sameSet,
  type SbgIssue, type SetState, type Tone,
} from "./model";
import { hasVoices, voicesToSbg } from "./write-voices";

const sounding = (s: ResolvedStep, ch: number) => s.channels[ch].enabled && s.channels[ch].frequency > 0;

function toneSetText(s: SetState): string {
  const words: string[] = [];
  if (s.noise) words.push(`${s.noise.type}/${num(s.noise.amp)}`);
  let last = -1;
  s.channels.forEach((t, i) => t && (last = i));
  for (let i = 0; i <= last; i++) {
    const t = s.channels[i];
    if (!t) words.push("-");
    else {
      const beat = t.iso ? `@${num(t.beat)}` : t.beat !== 0 ? `-${num(Math.abs(t.beat))}` : "";
      words.push(`${num(t.carrier)}${beat}/${num(t.amp)}`);
    }
  }
  return words.length ? words.join(" ") : "-";
}

/** A session as an SBaGen schedule; throws a TypeError naming the problem if it is not a session. */
export function toSbg(input: PresetData): { text: string; warnings: SbgIssue[] } {
  // Normalised as a preset is (four channels, every effect, a checked timeline).
  // A session in memory has today's volumes unless it says otherwise (an older preset's JSON).
  const checked = parsePreset({ version: PRESET_VERSION, ...input });
  if (!checked.ok) throw new TypeError(`Not a session: ${checked.error}`);
  const session = checked.state;
  if (hasVoices(session)) return voicesToSbg(session);
  const warnings: SbgIssue[] = [];
  const warned = new Set<string>();
  const warnOnce = (key: string, line: number, message: string) => {
    if (warned.has(key)) return;
    warned.add(key);
    warnings.push({ line, message });
  };
  let steps = resolveTimeline(session, session.timeline ?? { steps: [] });
  if (steps.some((s) => s.at > session.duration)) {
    warnings.push({ line: 0, message: `steps after the session's end (${clock(session.duration)}) are left out` });
    steps = steps.filter((s) => s.at <= session.duration);
  }
  const pitches = pitchTrack(steps);
  const voices = [0, 1, 2, 3].filter((ch) => steps.some((s) => engineGain(s.channels[ch]) > 0)).length;

  for (const d of EFFECTS) {
    if ((SBG_EFFECTS as readonly string[]).includes(d.id)) continue;
    const i = steps.findIndex((s) => s.effects[d.id]?.enabled);
    if (i >= 0) warnings.push({ line: i, message: `${d.name} is left out: .sbg has no such effect` });
  }

  const sets: SetState[] = steps.map((s, i) => {
    const bin = s.effects.binaural?.enabled ? s.effects.binaural.value : null;
    const iso = s.effects.isoPulses?.enabled ? s.effects.isoPulses.value : null;
    if (bin !== null && iso !== null) warnOnce("iso+bin", i, "isochronic pulses on binaural tones cannot be written: the pulses are left out");
    const tone = (carrier: number, amp: number): Tone =>
      bin !== null ? { carrier, beat: -bin, iso: false, amp } : iso !== null ? { carrier, beat: iso, iso: true, amp } : { carrier, beat: 0, iso: false, amp };
    const channels = s.channels.map((c, ch) => {
      if (sounding(s, ch)) {
        if (c.waveform !== "sine") warnOnce(`wave${ch}${c.waveform}`, i, `channel ${ch + 1}'s ${c.waveform} wave is written as a sine tone (SBaGen plays sine tones)`);
        return tone(c.frequency, ampOf(c.volume, voices));
      }
      // Silent next to a ramp that sounds at its other end: fade at the studio's pitch.
      const rampIn = i > 0 && s.ramp !== "hold" && sounding(steps[i - 1], ch);
      const rampOut = i + 1 < steps.length && steps[i + 1].ramp !== "hold" && sounding(steps[i + 1], ch);
      return (rampIn || rampOut) && pitches[i][ch] > 0 ? tone(pitches[i][ch], 0) : null;
    });
    const n = s.effects.noise;
    if (n?.enabled && (n.color !== 0 || n.density !== 100)) warnOnce("noise", i, "the noise's colour and density are left out: .sbg noise is plain");
    const type = n?.type === "pink" || n?.type === "brown" ? n.type : "white";
    return { channels, noise: n?.enabled ? { type, amp: n.value } : null };
  });

  if (sets.some((s) => s.noise && s.noise.type !== "pink")) warnings.push({ line: 0, message: "white and brown noise need SBaGen+ or SBaGenX (SBaGen 1.4 plays pink noise only)" });
  if (sets.some((s) => s.channels.some((t) => t?.iso))) warnings.push({ line: 0, message: "isochronic tones (carrier@pulse/amp) need SBaGen+ or SBaGenX" });

  // Names: the label when it is an SBaGen name for one tone-set, else auto-N.
  const byName = new Map<string, SetState>();
  let auto = 0;
  const names = steps.map((s, i) => {
    const set = sets[i];
    const label = s.label && NAME.test(s.label) && !AUTO_NAME.test(s.label) && s.label !== "NOW" ? s.label : null;
    if (s.label && !label) warnOnce(`name${s.label}`, i, `the name '${s.label}' is not an SBaGen name (a letter, then letters, digits, _ or -): written under another name`);
    if (label) {
      const known = byName.get(label);
      if (!known || sameSet(known, set)) {
        byName.set(label, set);
        return label;
      }
      warnings.push({ line: i, message: `the name '${label}' is used for different tone-sets: this one is written under another name` });
    }
    for (const [name, known] of byName) if (AUTO_NAME.test(name) && sameSet(known, set)) return name;
    const name = `auto-${++auto}`;
    byName.set(name, set);
    return name;
  });

  const out: string[] = [
    "## Session exported from the tone studio",
    `## ${clock(session.duration)}, ${steps.length} step${steps.length === 1 ? "" : "s"}`,
    "",
    "-SE",
    `-F ${WRITTEN_FADE_MS}`,
    "",
  ];
  for (const [name, set] of byName) out.push(`${name}: ${toneSetText(set)}`);
  out.push("");
  let prev = -1;
  steps.forEach((s, i) => {
    let at = Math.round(s.at);
    if (at !== s.at) warnOnce(`time${i}`, i, `step ${i} at ${s.at} s is written at ${clock(at)} (SBaGen times are whole seconds)`);
    at = Math.max(at, prev);
    prev = at;
    const next = steps[i + 1];
    if (next && (next.ramp === "ease" || next.ramp === "exponential")) warnings.push({ line: i + 1, message: `step ${i + 1}'s ${next.ramp} ramp is written as a linear slide` });
    const slide = next && next.ramp !== "hold" ? " ->" : "";
    out.push(`${at === 0 ? "NOW" : `NOW+${clock(at)}`} == ${names[i]}${slide}`);
  });
  if (session.duration > prev) out.push(`NOW+${clock(session.duration)} == ${names[names.length - 1]}`);
  return { text: out.join("\n") + "\n", warnings };
}
