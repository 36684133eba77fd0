// readSbgVoices: an SBaGen schedule (.sbg) as SBaGen plays it, in the studio's voices
// (dsp/host/model/voices.ts): every tone-set becomes a set of voice slots, every change between
// time lines becomes timeline steps with hold and linear ramps that play SBaGen's fades, slides
// and fades through silence exactly. The session's four channels stay off and its effects at their
// defaults. The rules followed are those of /tmp/sbg-semantics.md (sections 1.5, 3 and 6), in short:
//
// - The text (options, blocks, times, fade marks) is read by dsp/host/sbg/read.ts.
// - The schedule is SBaGen's 24-hour ring: the session starts at the first line (-S, the default
//   offline) or at the -T clock time, and the change-over from the last line into the first is
//   played where it falls (a schedule ending in silence rises from it over the first F/2).
// - A change-over at t plays over [t - F/2, t + F/2], trimmed by the steady time of the lines on
//   either side (processed in ring order). Slot by slot, a voice of the same kind with the same
//   pitch (or any pitch when both marks are `=`) moves linearly across the window; any other
//   change goes through silence at the window's middle. `<` or `>` send every slot through silence.
//   Isochronic and spin voices are held to the same pitch rule as binaural ones (section 6.7).
// - A line ending in `->` slides to the next line over the whole interval; a voice that starts or
//   ends in it fades at its own pitch.
// - A bell strikes at the middle of the window that brings its tone-set in, or at its line's own
//   time for a `->` line or the end of a slide. A bell stands in its slot only at the step where it
//   strikes (the engine lets it ring out); that keeps every linear ramp between voices of one kind,
//   so the writer (dsp/host/sbg/write.ts) can say each step as one SBaGen line.
// - `-p drop` and `-p slide` are expanded into the lines SBaGen 1.4 generates (sections 3.7, 3.8).
// - What the studio does not play yet (the soundtrack and its effects, user waveforms, SBaGenX's
//   shaped noise and envelopes, several options) is a warning on its line; the rest plays.

import { MAX_TIMELINE_STEPS, MIN_DURATION_SECONDS } from "../model/limits";
import { MAX_VOICES, MIXAM_DEFAULTS, MIX_EFFECT_KINDS, type MixAmVoice, type NoiseColour, type Voice, type VoiceSlots, type VoiceWaveform } from "../model/voices";
import { parsePreset, type PresetData } from "../schema/preset";
import { defaultEffects } from "../schema/state";
import type { TimelineStep } from "../schema/timeline";
import { AUTO_NAME, DAY_SECONDS, JUMP_FADE_MS, MAX_SECONDS, SBG_TAIL_SECONDS, clock, offChannel } from "./model";
import { customEnvelope, definitionSamples, noiseSpectrum, pulseEnvelope, spinPath, waveEnvelope } from "./envelopes";
import { BOUND_TO_BEAT, expandProgram } from "./program";
import { NUMBER as N, SPEC, ScheduleReader, pyIsoWarning, clockSeconds, type OptionWords, type TimeLine } from "./read";
import { checkText, type SbgResult } from "./parse";

type Line = TimeLine<VoiceSlots>;

const RE = {
  ...SPEC,
  spin: new RegExp(`^([bw]?)spin:${N}([+-])${N}/${N}$`),
  shape: /^(sine|square|triangle|sawtooth):/,
  custom: /^(custom\d\d):/,
  spinPath: /^(spin\d\d):/,
  noisePrefix: /^(noise\d\d):/,
  noiseAlone: new RegExp(`^(noise\\d\\d)/${N}$`),
  noisePulse: new RegExp(`^noisepulse:${N}/${N}$`),
  noiseBeat: new RegExp(`^noisebeat:(-?)${N}/${N}$`),
  mixSpin: new RegExp(`^mixspin:${N}([+-])${N}/${N}$`),
  mixPulse: new RegExp(`^mixpulse:${N}/${N}$`),
  mixBeat: new RegExp(`^mixbeat:(-?)${N}/${N}$`),
  mixAm: /^mixam:([^:]+)((?::[a-z]=[^:]*)*)$/,
  xVoice: /^(orbitbeat):/,
  wave: /^(wave\d+):/,
};
const SPIN_COLOUR: Record<string, NoiseColour> = { "": "pink", b: "brown", w: "white" };

// ---- voices ------------------------------------------------------------------------------------------

export const tone = (carrier: number, amp: number): Voice => ({ kind: "tone", carrier, amp });
export const binaural = (carrier: number, beat: number, amp: number): Voice => ({ kind: "binaural", carrier, beat, amp });
export const isochronic = (carrier: number, pulse: number, amp: number): Voice => ({ kind: "isochronic", carrier, pulse, amp });

/** The same sound source: kind and, for noise, the colour (the values may differ). */
/** SBaGen plays a plain tone as a binaural tone with a beat of 0, so the two slide into each other. */
function canonical(v: Voice): Voice {
  return v.kind === "tone" ? { kind: "binaural", carrier: v.carrier, beat: 0, amp: v.amp, ...(v.waveform ? { waveform: v.waveform } : {}) } : v;
}

function sameKind(a: Voice, b: Voice): boolean {
  const x = canonical(a), y = canonical(b);
  if (x.kind !== y.kind) return false;
  // Voices with different envelopes or waveforms are different sounds.
  if (("waveform" in x ? x.waveform : undefined) !== ("waveform" in y ? y.waveform : undefined)) return false;
  if (JSON.stringify("envelope" in x ? x.envelope : null) !== JSON.stringify("envelope" in y ? y.envelope : null)) return false;
  return !("colour" in x) || x.colour === (y as typeof x).colour;
}

/** Everything but the level is equal (SBaGen's test for a fade that keeps a voice going). */
function samePitch(a: Voice, b: Voice): boolean {
  return JSON.stringify({ ...canonical(a), amp: 0 }) === JSON.stringify({ ...canonical(b), amp: 0 });
}

const lerp = (a: number, b: number, u: number) => a + (b - a) * u;

function lerpVoice(a: Voice, b: Voice, u: number): Voice {
  const [x, y] = a.kind === b.kind ? [a, b] : [canonical(a), canonical(b)];
  const out: Record<string, unknown> = { ...x };
  for (const [k, v] of Object.entries(x)) if (typeof v === "number") out[k] = lerp(v, (y as unknown as Record<string, number>)[k], u);
  return out as unknown as Voice;
}

const mute = (v: Voice): Voice => ({ ...v, amp: 0 });
const isBell = (v: Voice | null): boolean => v?.kind === "bell";

/** Slots without the trailing empty ones (so equal sounds are equal lists). */
function trim(s: VoiceSlots): VoiceSlots {
  const out = [...s];
  while (out.length && out[out.length - 1] === null) out.pop();
  return out;
}
const same = (a: VoiceSlots, b: VoiceSlots) => JSON.stringify(trim(a)) === JSON.stringify(trim(b));
const withoutBells = (s: VoiceSlots): VoiceSlots => s.map((v) => (isBell(v) ? null : v));
const silent = (s: VoiceSlots) => s.every((v) => !v || v.amp <= 0);

// ---- mixam's envelope (SBaGenX's -H and the mixam: word's own k=v pairs) -----------------------------

type MixAmParams = { -readonly [K in keyof typeof MIXAM_DEFAULTS]: K extends "shape" ? MixAmVoice["shape"] : number };

/** Applies "m=cos:s=0:d=..:a=..:r=..:e=..:f=.." to `p`; returns what was wrong, or null. As SBaGenX:
 *  d, a, r or e without m= mean the pulse shape. */
function applyMixAmParams(p: MixAmParams, spec: string): string | null {
  let shapeGiven = false, pulseParam = false;
  const wrong: string[] = [];
  for (const pair of spec.split(":").filter(Boolean)) {
    const [k, v] = pair.split("=");
    const x = Number(v);
    if (k === "m" && (v === "cos" || v === "pulse")) [p.shape, shapeGiven] = [v, true];
    else if (!Number.isFinite(x) || v === undefined || v === "") wrong.push(pair);
    else if (k === "s") p.start = x - Math.floor(x);
    else if (k === "f") p.floor = Math.min(1, Math.max(0, x));
    else if (k === "d" || k === "a" || k === "r") [p[{ d: "duty", a: "attack", r: "release" }[k] as "duty"], pulseParam] = [Math.min(1, Math.max(0, x)), true];
    else if (k === "e") [p.edge, pulseParam] = [Math.min(3, Math.max(0, Math.round(x))), true];
    else wrong.push(pair);
  }
  if (pulseParam && !shapeGiven) p.shape = "pulse";
  return wrong.length ? `mixam parameters ${wrong.map((w) => `'${w}'`).join(", ")} ignored` : null;
}

function mixAmVoice(rate: number, p: MixAmParams): Voice {
  return { kind: "mixam", rate, amp: Math.round((1 - p.floor) * 100 * 10000) / 10000, shape: p.shape, start: p.start, duty: p.duty, attack: p.attack, release: p.release, edge: p.edge };
}

/** A voice word's prefixes (names of definitions). */
interface Shaping {
  /** A waveform prefix (sine included: it overrides -w). */
  waveform?: "sine" | VoiceWaveform;
  envelope?: { name: string; of: "wave" | "custom" };
  path?: string;
  spectrum?: string;
}

// ---- the reader --------------------------------------------------------------------------------------

class VoiceReader extends ScheduleReader<VoiceSlots> {
  readFile?: (name: string) => string | null;
  protected markAfterName = true;
  /** -T: the clock time the session starts at (null: at the first line). */
  start: number | null = null;
  startLine = 0;
  program: { line: number; args: string[] } | null = null;
  /** -V: the output level, 1-100 (SBaGenX): every voice's amp times V/100. */
  volume = 100;
  /** -c: headphone compensation, frequency=factor pairs in rising frequency. */
  compensation: [number, number][] | null = null;
  /** -I: the isochronic pulse's shape (SBaGenX), for isochronic tones and noisepulse without
   *  their own envelope. */
  isoShape: number[] | null = null;
  /** -w: the waveform of binaural and isochronic tones without a prefix (SBaGenX). */
  defaultWave: "sine" | VoiceWaveform = "sine";
  /** -H: the mixam envelope's defaults (SBaGenX). */
  mixam: MixAmParams = { ...MIXAM_DEFAULTS };
  /** -m: the soundtrack file the mix voices play. (SBaGen's looping group, file.ogg#1, cannot be
   *  written in a file, where # starts a comment: the CLI's --mix takes it.) */
  soundtrack: { name: string; line: number } | null = null;

  protected option(line: number, flag: string, words: OptionWords): "stop" | void {
    switch (flag) {
      case "i":
        this.error(line, "-i (immediate tone-specs) is not supported in a schedule: write a tone-set and a NOW line");
        return "stop";
      case "p":
        this.program = { line, args: words.rest() };
        return "stop";
      case "T": {
        const at = clockSeconds(words.next());
        if (at === null) this.error(line, "-T needs a clock time as hh:mm or hh:mm:ss");
        else [this.start, this.startLine] = [at, line];
        return;
      }
      case "m": {
        const name = words.next();
        if (!name) this.error(line, "-m needs the soundtrack's file name");
        else this.soundtrack = { name, line };
        return;
      }
      case "H": {
        const spec = words.peek() !== undefined && !words.peek()!.startsWith("-") ? words.next()! : "";
        const bad = applyMixAmParams(this.mixam, spec);
        if (bad) this.warn(line, `-H: ${bad}`);
        return;
      }
      case "c": {
        // -c 80=1,40=2,30=4: every tone's level times a factor of its frequency (linear between).
        const points = (words.next() ?? "").split(",").map((kv) => kv.split("=").map(Number));
        if (points.length && points.every((p) => p.length === 2 && p.every(Number.isFinite))) this.compensation = points.sort((a, b) => a[0] - b[0]) as [number, number][];
        else this.warn(line, "-c needs frequency=factor pairs such as 80=1,40=2,30=4");
        return;
      }
      case "V": {
        const v = Number(words.next());
        if (v >= 1 && v <= 100) this.volume = v;
        else this.warn(line, "-V takes a level from 1 to 100");
        return;
      }
      // The studio never scales a tone-set whose amps add up past 100 (its limiter keeps the
      // peaks under its ceiling): what -N asks for.
      case "N": return;
      case "I": {
        const spec = words.peek() !== undefined && !words.peek()!.startsWith("-") ? words.next()! : "";
        const p = { start: 0.0485, duty: 0.403, attack: 0.5, release: 0.5, edge: 2 };
        for (const kv of spec.split(":").filter(Boolean)) {
          const [k, v] = kv.split("=");
          const key = ({ s: "start", d: "duty", a: "attack", r: "release", e: "edge" } as const)[k as "s"];
          if (key && v !== undefined && Number.isFinite(Number(v))) p[key] = Number(v);
          else this.warn(line, `-I: '${kv}' ignored`);
        }
        this.isoShape = pulseEnvelope(p);
        return;
      }
      case "w": {
        const w = words.next();
        if (w === "sine" || w === "square" || w === "sawtooth" || w === "triangle") this.defaultWave = w;
        else this.warn(line, `-w ${w ?? ""}: the waveforms are sine, square, triangle and sawtooth`);
        return;
      }
      default:
        if (this.playbackOption(line, flag, words)) return;
        // An option this reader does not know: its arguments go with it.
        while (words.peek() !== undefined && !words.peek()!.startsWith("-")) words.next();
        this.warn(line, `unknown option -${flag} ignored`);
    }
  }

  /** waveNN, customNN, spinNN and noiseNN definitions read so far (envelopes, paths, spectra). */
  private envelopes = new Map<string, number[]>();

  protected definition(line: number, name: string, rest: string): boolean {
    const m = /^(wave|custom|noise|spin)\d\d$/.exec(name);
    if (!m) return false;
    const read = definitionSamples(rest);
    const made = !read
      ? "its values must be numbers"
      : m[1] === "wave" ? waveEnvelope(read.samples)
      : m[1] === "custom" ? customEnvelope(read.samples, read.edge)
      : m[1] === "spin" ? spinPath(read.samples, read.edge)
      : noiseSpectrum(read.samples);
    if (typeof made === "string") this.warn(line, `${name} ignored: ${made}`);
    else this.envelopes.set(name, made);
    return true;
  }

  protected undefinedSet(line: number, name: string): VoiceSlots | undefined {
    if (name !== "off" && name !== "alloff" && name !== "all-off") return undefined;
    this.warn(line, `'${name}' is not defined: read as silence (SBaGen needs a line such as '${name}: -')`);
    this.sets.set(name, []);
    return [];
  }

  /** One word of a tone-set: a voice, an empty slot (null), or undefined after reporting it. */
  private voice(line: number, word: string): Voice | null | undefined {
    let w = word;
    let m: RegExpExecArray | null;
    // Prefixes, in any order: a waveform, an envelope (waveNN, customNN), a spin path (spinNN), a
    // noise spectrum (noiseNN).
    const shaping: Shaping = {};
    for (;;) {
      if ((m = RE.shape.exec(w))) {
        shaping.waveform = m[1] as Shaping["waveform"];
      } else if ((m = RE.wave.exec(w)) || (m = RE.custom.exec(w))) {
        shaping.envelope = { name: m[1], of: m[1].startsWith("wave") ? "wave" : "custom" };
      } else if ((m = RE.spinPath.exec(w))) {
        shaping.path = m[1];
      } else if ((m = RE.noisePrefix.exec(w))) {
        shaping.spectrum = m[1];
      } else break;
      w = w.slice(m[0].length);
    }
    if ((m = RE.noiseAlone.exec(w))) [shaping.spectrum, w] = [m[1], `pink/${m[2]}`];
    if (shaping.waveform || shaping.envelope || shaping.path || shaping.spectrum) {
      const inner = this.voice(line, w);
      return inner ? this.shaped(line, word, inner, shaping) : inner;
    }
    const plain = this.plainVoice(line, word, w);
    // -w: binaural and isochronic tones without a waveform prefix.
    if (plain && this.defaultWave !== "sine" && (plain.kind === "binaural" || plain.kind === "isochronic") && !plain.waveform) {
      return { ...plain, waveform: this.defaultWave };
    }
    return plain;
  }

  /** A voice word without prefixes. */
  private plainVoice(line: number, word: string, w: string): Voice | null | undefined {
    const later = (what: string) => this.warn(line, `'${word}': ${what}`);
    let m: RegExpExecArray | null;
    if (w === "-") return null;
    if ((m = RE.noisePulse.exec(w))) return { kind: "noisepulse", pulse: Number(m[1]), amp: Number(m[2]) };
    if ((m = RE.noiseBeat.exec(w))) return { kind: "noisebeat", beat: Number(m[2]) * (m[1] ? -1 : 1), amp: Number(m[3]) };
    if ((m = RE.noise.exec(w))) return { kind: "noise", colour: m[1] as NoiseColour, amp: Number(m[2]) };
    if ((m = RE.binaural.exec(w))) return binaural(Number(m[1]), Number(m[3]) * (m[2] === "-" ? -1 : 1), Number(m[4]));
    if ((m = RE.iso.exec(w))) return isochronic(Number(m[1]), Number(m[2]), Number(m[3]));
    if ((m = RE.sine.exec(w))) return tone(Number(m[1]), Number(m[2]));
    if ((m = RE.bell.exec(w))) return { kind: "bell", carrier: Number(m[1]), amp: Number(m[2]) };
    if ((m = RE.spin.exec(w))) {
      const rate = Number(m[4]) * (m[3] === "-" ? -1 : 1);
      return { kind: "spin", colour: SPIN_COLOUR[m[1]], width: Number(m[2]), rate, amp: Number(m[5]) };
    }
    if ((m = RE.mix.exec(w))) return { kind: "mix", amp: Number(m[1]) };
    if ((m = RE.mixPulse.exec(w))) return { kind: "mixpulse", pulse: Number(m[1]), amp: Number(m[2]) };
    if ((m = RE.mixBeat.exec(w))) return { kind: "mixbeat", beat: Number(m[2]) * (m[1] ? -1 : 1), amp: Number(m[3]) };
    if ((m = RE.mixSpin.exec(w))) return { kind: "mixspin", width: Number(m[1]), rate: Number(m[3]) * (m[2] === "-" ? -1 : 1), amp: Number(m[4]) };
    if ((m = RE.mixAm.exec(w))) {
      const rate = Number(m[1]);
      const bound = m[1] === "beat" || m[1] === "pulse";
      if (!bound && !Number.isFinite(rate)) return later(`mixam's rate '${m[1]}' is not a number, beat or pulse: left out`), null;
      const params = { ...this.mixam };
      const bad = applyMixAmParams(params, m[2]);
      if (bad) later(bad);
      // Bound to a program's beat (-p drop, sigmoid, slide): the program sets the rate at each point.
      return mixAmVoice(bound ? BOUND_TO_BEAT : rate, params);
    }
    if ((m = RE.pyIso.exec(w))) return this.warn(line, pyIsoWarning(word, m)), isochronic(Number(m[1]), Number(m[2]), Number(m[3]));
    if (RE.xVoice.test(w)) return later("this SBaGenX voice is not played yet: left out"), null;
    // One word the studio cannot read does not stop the rest of the schedule from playing.
    later("not a voice (expected carrier+beat/amp, carrier-beat/amp, carrier/amp, carrier@pulse/amp, pink/amp, white/amp, brown/amp, spin:width+rate/amp, bell+carrier/amp or -): left out, its slot silent");
    return null;
  }

  /** A voice with its prefixes: an envelope (waveNN on binaural tones; customNN on binaural and
   *  isochronic tones and the noise beds), a spin path (spin voices), a noise spectrum (noise, spin
   *  and the noise beds). What does not apply, or is not defined above, is a warning. */
  private shaped(line: number, word: string, voice: Voice, s: Shaping): Voice {
    let v = voice;
    if (s.waveform) {
      if (v.kind === "tone" || v.kind === "binaural" || v.kind === "isochronic") {
        const tone: Voice & { waveform?: VoiceWaveform } = { ...v };
        delete tone.waveform;
        v = s.waveform === "sine" ? tone : { ...tone, waveform: s.waveform };
      } else if (s.waveform !== "sine") {
        this.warn(line, `'${word}': ${s.waveform} shapes tones only (a ${v.kind} voice's motion plays as a sine)`);
      }
    }
    const get = (name: string) => {
      const t = this.envelopes.get(name);
      if (!t) this.warn(line, `'${word}': ${name} is not defined above: played without it`);
      return t;
    };
    const wrong = (name: string, what: string) => this.warn(line, `'${word}': ${name} shapes ${what} only: played without it`);
    if (s.envelope) {
      const table = get(s.envelope.name);
      const fits = v.kind === "binaural" || (s.envelope.of === "custom" && (v.kind === "isochronic" || v.kind === "noisepulse" || v.kind === "noisebeat"));
      if (table && fits) v = { ...v, envelope: table } as Voice;
      else if (table && v.kind === "tone") {
        // A plain tone is a beat of 0: its envelope never moves from where the cycle starts, and
        // SBaGenX plays the tone at that level (custom00 starting at 0 is silence).
        this.warn(line, `'${word}': a plain tone has no beat to move ${s.envelope.name} over: it plays at the envelope's first level (${Math.round(table[0] * 100)} %), as SBaGenX does`);
        v = { ...v, amp: Math.round(v.amp * table[0] * 10000) / 10000 };
      } else if (table) wrong(s.envelope.name, s.envelope.of === "wave" ? "binaural tones" : "binaural and isochronic tones and noise beds");
    }
    if (s.path) {
      const table = get(s.path);
      if (table && v.kind === "spin") v = { ...v, path: table };
      else if (table) wrong(s.path, "spinning noise");
    }
    if (s.spectrum) {
      const table = get(s.spectrum);
      if (table && (v.kind === "noise" || v.kind === "spin" || v.kind === "noisepulse" || v.kind === "noisebeat")) v = { ...v, spectrum: table } as Voice;
      else if (table) wrong(s.spectrum, "noise");
    }
    return v;
  }

  toneSet(line: number, name: string, words: string[]): VoiceSlots | null {
    const slots: VoiceSlots = [];
    let bad = false;
    for (const w of words) {
      const v = this.voice(line, w);
      if (v === undefined) bad = true;
      else slots.push(v);
    }
    if (slots.length > MAX_VOICES) {
      this.error(line, `'${name}' has ${slots.length} voices; the studio plays at most ${MAX_VOICES} (SBaGen ${16})`);
      return null;
    }
    if (!name.startsWith("-p ")) {
      // mixam:beat follows a program's beat: in a tone-set of its own it has none.
      slots.forEach((v, i) => {
        if (v?.kind === "mixam" && v.rate === BOUND_TO_BEAT) {
          this.warn(line, "mixam:beat follows the beat of a -p program (drop, sigmoid, slide): left out here");
          slots[i] = null;
        }
      });
    }
    return bad ? null : trim(slots);
  }
}

// ---- schedule -> keys ----------------------------------------------------------------------------------

interface Key {
  t: number;
  voices: VoiceSlots;
  ramp: "hold" | "linear";
  line: number;
  label?: string;
}

const r3 = (v: number) => Math.round(v * 1000) / 1000;

/** One transition from line a's set to line b's over [start, end]. */
interface Change {
  a: Line;
  b: Line;
  start: number;
  end: number;
  /** The whole interval of a `->` line. */
  arrow: boolean;
}

class Keys {
  keys: Key[] = [];
  constructor(private sets: Map<string, VoiceSlots>) {}

  emit(t: number, voices: VoiceSlots, ramp: Key["ramp"], line: number, name?: string) {
    const last = this.keys[this.keys.length - 1];
    // A bell struck at this very time stays in its slot until a later step.
    const v = trim(last && last.t === t ? voices.map((x, k) => x ?? (isBell(last.voices[k] ?? null) ? last.voices[k] : null)) : voices);
    if (last && last.t === t) last.voices.forEach((x, k) => k >= v.length && isBell(x) && (v[k] = x));
    for (let k = 0; k < v.length; k++) v[k] ??= null;
    const label = name !== undefined && same(this.sets.get(name) ?? [], v) ? name : undefined;
    if (last && last.t === t && same(last.voices, v)) {
      if (label && !last.label) last.label = label;
      return;
    }
    this.keys.push({ t, voices: v, ramp: last && last.t >= t ? "hold" : ramp, line, ...(label ? { label } : {}) });
  }

  /** SBaGen's change-over, slot by slot (section 3.4 of the semantics). */
  change({ a, b, start, end, arrow }: Change) {
    const bells = b.set.map((v) => (isBell(v) ? v : null));
    const A = withoutBells(a.set), B = withoutBells(b.set);
    const n = Math.max(A.length, B.length);
    // The bell strikes at the window's middle, or at the line's own time when the line slides.
    const strikeAtEnd = arrow || b.slide;
    if (end <= start) {
      this.emit(start, b.set, "hold", b.line, b.name);
      return;
    }
    // A change-over into the same set changes nothing (a bell in it strikes again).
    if (!arrow && same(a.set, b.set) && !bells.some(Boolean)) return;
    const silenceAll = !arrow && (a.fadeOut === "silence" || b.fadeIn === "silence");
    const slide = arrow || (a.fadeOut === "slide" && b.fadeIn === "slide");
    const from: VoiceSlots = [], to: VoiceSlots = [], smooth: boolean[] = [];
    for (let k = 0; k < n; k++) {
      let x = A[k] ?? null, y = B[k] ?? null;
      if (arrow && !x && y) x = mute(y);
      if (arrow && x && !y) y = mute(x);
      from.push(x);
      to.push(y);
      smooth.push(!x || !y ? !x && !y : !silenceAll && sameKind(x, y) && (slide || samePitch(x, y)));
    }
    const through = smooth.map((s) => !s);
    let mid = (start + end) / 2;
    if (Number.isInteger(start) && Number.isInteger(end)) mid = Math.round(mid);
    const u = (mid - start) / (end - start);
    const needMid = through.some(Boolean) || (!strikeAtEnd && bells.some(Boolean));
    const needSwap = through.some((s, k) => s && from[k]);
    // New voices that rise from silence wait at level 0 from the window's start.
    const first = from.map((x, k) => x ?? (through[k] && to[k] ? mute(to[k]!) : null));
    this.emit(start, first, "hold", a.line, a.name);
    if (needMid) {
      const lerped = (k: number) => lerpVoice(from[k]!, to[k]!, u);
      const midBells = (s: VoiceSlots) => (strikeAtEnd ? s : s.map((v, k) => bells[k] ?? v));
      const outgoing = from.map((x, k) => (through[k] ? (x ? mute(x) : to[k] ? mute(to[k]!) : null) : x ? lerped(k) : null));
      this.emit(mid, needSwap ? outgoing : midBells(outgoing), "linear", a.line);
      if (needSwap) {
        const incoming = to.map((y, k) => (through[k] ? (y ? mute(y) : null) : y ? lerped(k) : null));
        this.emit(mid, midBells(incoming), "hold", b.line);
      }
    }
    const last = strikeAtEnd ? to.map((y, k) => bells[k] ?? y) : to;
    this.emit(end, last, "linear", b.line, b.name);
  }

  /** The sound at time t (between keys: linear ramps interpolate, holds keep the earlier key). */
  at(t: number): VoiceSlots {
    const i = this.keys.findIndex((k) => k.t > t);
    if (i <= 0) return withoutBells(this.keys[i < 0 ? this.keys.length - 1 : 0].voices);
    const p = this.keys[i - 1], q = this.keys[i];
    if (q.ramp === "hold") return withoutBells(p.voices);
    const u = (t - p.t) / (q.t - p.t);
    const n = Math.max(p.voices.length, q.voices.length);
    return Array.from({ length: n }, (_, k) => {
      const x = p.voices[k] ?? null, y = q.voices[k] ?? null;
      return x && y && sameKind(x, y) && !isBell(x) ? lerpVoice(x, y, u) : isBell(x) ? null : x;
    });
  }

  /** Keeps [0, end]: the sound at 0 is the first key, the last ramp is cut at its value at `end`. */
  cut(end: number) {
    const before = this.keys.filter((k) => k.t < 0);
    if (before.length) {
      const start: Key = { t: 0, voices: trim(this.at(0)), ramp: "hold", line: before[before.length - 1].line };
      this.keys = this.keys.filter((k) => k.t >= 0);
      if (!this.keys.length || this.keys[0].t > 0) this.keys.unshift(start);
    }
    const keep = this.keys.filter((k) => k.t <= end);
    const next = this.keys[keep.length];
    const last = keep[keep.length - 1];
    if (next && next.ramp === "linear" && last.t < end) keep.push({ t: end, voices: trim(this.at(end)), ramp: "linear", line: next.line });
    this.keys = keep;
  }
}

/** The lines in ring order from the session's start, with their times in seconds from it. */
function ring(r: VoiceReader, lines: Line[]): { order: Line[]; times: number[]; last: number } | null {
  // Times in file order: each line after the one above, the whole ring within one day.
  const file = [0];
  for (let i = 1; i < lines.length; i++) {
    file.push(file[i - 1] + ((lines[i].at - lines[i - 1].at + DAY_SECONDS) % DAY_SECONDS));
    if (file[i] >= DAY_SECONDS) {
      r.error(lines[i].line, "the lines add up to more than 24 hours (a time earlier than the line above is read as the next day)");
      return null;
    }
  }
  if (r.start !== null && lines[0].now) r.warn(r.startLine, "-T ignored: a NOW schedule starts at its first line");
  const offset = r.start === null || lines[0].now ? 0 : (lines[0].at - r.start + DAY_SECONDS) % DAY_SECONDS;
  // With -T the day may start inside the ring: begin with the first line after the start.
  const rel = file.map((t) => (t + offset) % DAY_SECONDS);
  const k = rel.findIndex((t, i) => i > 0 && t < rel[i - 1]);
  const from = k < 0 ? 0 : k;
  const order = [...lines.slice(from), ...lines.slice(0, from)];
  const times = order.map((_, i) => rel[(from + i) % lines.length]);
  return { order, times, last: times[(lines.length - 1 - from + lines.length) % lines.length] };
}

function build(r: VoiceReader, lines: Line[]): { keys: Key[]; end: number } | null {
  if (!lines.length) {
    r.error(0, "no time lines: nothing plays (add a line such as 'NOW alpha')");
    return null;
  }
  const laid = ring(r, lines);
  if (!laid) return null;
  const { order, times } = laid;
  const n = order.length;
  const half = r.fadeMs <= JUMP_FADE_MS ? 0 : r.fadeMs / 2000;
  const kf = new Keys(r.sets);
  const changes: Change[] = [];
  // The change-over into line i at times[i] (i = 0: from the last line, a day earlier).
  const prevTime = (i: number) => (i > 0 ? times[i - 1] : times[n - 1] - DAY_SECONDS);
  const nextTime = (i: number) => (i + 1 < n ? times[i + 1] : times[0] + DAY_SECONDS);
  const into = (i: number, cursor: number): Change => {
    const a = order[(i - 1 + n) % n], b = order[i], t = times[i];
    if (a.slide) return { a, b, start: prevTime(i), end: t, arrow: true };
    const before = r3(Math.min(half, t - cursor));
    const after = b.slide ? 0 : r3(Math.min(half, nextTime(i) - t));
    return { a, b, start: t - before, end: t + after, arrow: false };
  };
  // The ring in order from line 1, starting after the window into line 0 (whose own start
  // depends on how the last line's period was shortened, known at the end).
  const first = into(0, -Infinity);
  let cursor = first.end;
  for (let i = 1; i < n; i++) {
    changes.push(into(i, cursor));
    cursor = changes[changes.length - 1].end;
  }
  const wrap = n > 1 ? into(0, cursor - DAY_SECONDS) : first;
  const lastLine = order[n - 1];
  kf.emit(Math.min(wrap.start, prevTime(0)), withoutBells(lastLine.set), "hold", lastLine.line);
  for (const c of [wrap, ...changes]) kf.change(c);

  const fileLast = lines[lines.length - 1];
  const tLast = laid.last;
  let end = r.length ?? (silent(fileLast.set) || r.stopAtEnd ? tLast : tLast + SBG_TAIL_SECONDS);
  if (end > MAX_SECONDS) {
    if (r.length !== null) r.error(0, `-L ${clock(r.length)} is longer than the studio's ${clock(MAX_SECONDS)}`);
    else end = MAX_SECONDS;
  }
  kf.cut(end);
  // A key that repeats the one before and leads into no ramp says nothing.
  const keys = kf.keys.filter((k, i, all) => i === 0 || !same(k.voices, all[i - 1].voices) || (i + 1 < all.length && all[i + 1].ramp === "linear" && all[i + 1].t > k.t));
  // A last key that changes nothing only marks the end; keys at 0:00 before the last are replaced.
  while (keys.length > 1 && keys[keys.length - 1].ramp === "hold" && same(keys[keys.length - 1].voices, keys[keys.length - 2].voices)) keys.pop();
  while (keys.length > 1 && keys[1].t <= 0) keys.shift();
  keys[0].ramp = "hold";
  if (keys.length > MAX_TIMELINE_STEPS) {
    r.error(keys[MAX_TIMELINE_STEPS].line, `the schedule needs ${keys.length} timeline steps (a change-over takes 2-4); the studio holds at most ${MAX_TIMELINE_STEPS}`);
    return null;
  }
  return { keys, end };
}

function session(keys: Key[], end: number): PresetData {
  const label = (k: Key) => (k.label && !AUTO_NAME.test(k.label) ? { label: k.label.slice(0, 64) } : {});
  const steps: TimelineStep[] = keys.map((k) => ({ at: r3(k.t), ramp: k.ramp, voices: k.voices, ...label(k) }));
  const base: PresetData = {
    channels: [1, 2, 3, 4].map(offChannel),
    effects: defaultEffects(),
    duration: Math.round(Math.min(MAX_SECONDS, Math.max(MIN_DURATION_SECONDS, end))),
    ...(keys[0].voices.length ? { voices: keys[0].voices } : {}),
  };
  return steps.length === 1 && !steps[0].label ? base : { ...base, timeline: { steps } };
}

/** An SBaGen schedule as SBaGen plays it, in voices; every problem by line number (0: the file). */
/** The options that change every voice: -V (level), -c (compensation by frequency) and -I (the
 *  isochronic pulse's shape). */
function adjustLevels(r: VoiceReader, sound: PresetData): void {
  if (r.volume === 100 && !r.compensation && !r.isoShape) return;
  const factor = (f: number): number => {
    const c = r.compensation;
    if (!c) return 1;
    if (f <= c[0][0]) return c[0][1];
    if (f >= c[c.length - 1][0]) return c[c.length - 1][1];
    const j = c.findIndex(([x]) => x >= f);
    const [x0, y0] = c[j - 1], [x1, y1] = c[j];
    return y0 + ((y1 - y0) * (f - x0)) / (x1 - x0);
  };
  const adjust = (v: Voice | null): Voice | null => {
    // The soundtrack effects' amp is a strength, not a level.
    if (!v || (MIX_EFFECT_KINDS as readonly string[]).includes(v.kind)) return v;
    const tone = "carrier" in v ? factor(v.carrier) : 1;
    const out = { ...v, amp: Math.round(v.amp * (r.volume / 100) * tone * 10000) / 10000 } as Voice;
    if (r.isoShape && (out.kind === "isochronic" || out.kind === "noisepulse") && !out.envelope) out.envelope = r.isoShape;
    return out;
  };
  if (sound.voices) sound.voices = sound.voices.map(adjust);
  for (const s of sound.timeline?.steps ?? []) if (s.voices) s.voices = s.voices.map(adjust);
}

export interface ReadOptions {
  /** The text of a file the schedule names (a `-p curve` .sbgf), or null when it is not there. */
  readFile?: (name: string) => string | null;
}

export function readSbgVoices(text: string, options: ReadOptions = {}): SbgResult {
  const wrong = checkText(text);
  if (wrong) return wrong;
  const r = new VoiceReader();
  if (options.readFile) r.readFile = options.readFile;
  r.read(text);
  let lines = r.lines;
  if (r.program) {
    if (lines.length) r.warn(r.program.line, "the time lines are left out: the -p program makes the whole schedule");
    lines = expandProgram(r, r.program.line, r.program.args) ?? [];
    if (r.errors.length) return { ok: false, errors: r.errors, warnings: r.warnings };
  }
  const built = r.errors.length ? null : build(r, lines);
  if (!built || r.errors.length) return { ok: false, errors: r.errors, warnings: r.warnings };
  const sound = session(built.keys, built.end);
  adjustLevels(r, sound);
  const mixes = [sound.voices ?? [], ...(sound.timeline?.steps.map((s) => s.voices ?? []) ?? [])].some((s) => s.some((v) => v?.kind === "mix"));
  if (r.soundtrack) {
    sound.soundtrack = { name: r.soundtrack.name };
    if (!mixes) r.warn(r.soundtrack.line, `-m ${r.soundtrack.name}: no tone-set plays it (SBaGen needs mix/amp in a tone-set)`);
  } else if (mixes) {
    r.warn(0, "mix/ plays the soundtrack, but no -m names its file: the mix voices are silent");
  }
  const checked = parsePreset(sound);
  if (!checked.ok) return { ok: false, errors: [{ line: 0, message: `the session does not fit the studio: ${checked.error}` }], warnings: r.warnings };
  return { ok: true, session: checked.state, warnings: r.warnings };
}
