// The text side of an SBaGen schedule, shared by both readers: the four-channel import
// (dsp/host/sbg/parse.ts, parseSbg) and the voice reader (dsp/host/sbg/voices.ts, readSbgVoices).
// It splits the file into option lines, tone-set definitions, blocks and time lines, resolves
// times (NOW, clock times, relative chains, block calls) and fade marks, and hands each tone-set's
// words to the reader that owns it; what a tone-set becomes, and what happens to the options and
// definitions only one of the readers plays, is up to that reader (the abstract hooks below).
//
// Time lines (sbagen.c readTimeLine as documented in /tmp/sbg-semantics.md section 3):
// - NOW, NOW+hh:mm[:ss], hh:mm[:ss], +hh:mm[:ss] and chains like 12:00+00:20; a relative part
//   counts from the last absolute time mentioned.
// - An optional two-character fade mark (< - = then > - =) before the name, '->' after it.
// - A block call pastes the caller's time in front of each of the block's lines.

import { MAX_TIMELINE_STEPS } from "../model/limits";
import { DAY_SECONDS, DEFAULT_FADE_MS, type SbgIssue } from "./model";

export const NUMBER = String.raw`(\d+(?:\.\d*)?|\.\d+)`;
/** The tone-set words both readers know (SBaGen 1.4's and SBaGen+'s). */
export const SPEC = {
  noise: new RegExp(`^(pink|white|brown)/${NUMBER}$`),
  binaural: new RegExp(`^${NUMBER}([+-])${NUMBER}/${NUMBER}$`),
  iso: new RegExp(`^${NUMBER}@${NUMBER}/${NUMBER}$`),
  sine: new RegExp(`^${NUMBER}/${NUMBER}$`),
  bell: new RegExp(`^bell[+-]?${NUMBER}/${NUMBER}$`),
  mix: new RegExp(`^mix/${NUMBER}$`),
  /** pysbagen's isochronic tone (`iso:carrier,pulse/amp`), not SBaGen syntax: read as carrier@pulse/amp. */
  pyIso: new RegExp(`^iso:${NUMBER},${NUMBER}/${NUMBER}$`),
};
/** The warning for a pysbagen `iso:` word, read as SBaGen+'s isochronic tone. */
export const pyIsoWarning = (word: string, m: RegExpExecArray): string =>
  `'${word}' is pysbagen's isochronic syntax, not SBaGen's (SBaGen and SBaGenX refuse it): played as SBaGen+'s ${m[1]}@${m[2]}/${m[3]}`;
export const DEFINITION = /^([A-Za-z][A-Za-z0-9_-]*):(?:\s+(.*))?$/;
export const TIME = /^(\d{1,2}):(\d{1,2})(?::(\d{1,2}))?/;
/** Time lines a schedule may expand to (block calls included): four times the timeline's steps. */
const MAX_EXPANDED_LINES = 4 * MAX_TIMELINE_STEPS;
const FADE_IN = { "<": "silence", "-": "fade", "=": "slide" } as const;
const FADE_OUT = { ">": "silence", "-": "fade", "=": "slide" } as const;
export type Mark = "silence" | "fade" | "slide";

export interface TimeLine<S> {
  line: number;
  at: number; // clock seconds in the day (NOW = 0)
  now: boolean;
  fadeIn: Mark;
  fadeOut: Mark;
  name: string;
  set: S;
  slide: boolean;
}

/** hh:mm or hh:mm:ss as seconds, or null. */
export function clockSeconds(text: string | undefined): number | null {
  const m = text ? TIME.exec(text) : null;
  if (!m || m[0] !== text) return null;
  return Number(m[1]) * 3600 + Number(m[2]) * 60 + Number(m[3] ?? 0);
}

/** The option words of a line, for the readers' option hooks: the next word, or every word left. */
export interface OptionWords {
  next(): string | undefined;
  peek(): string | undefined;
  rest(): string[];
}

export abstract class ScheduleReader<S> {
  errors: SbgIssue[] = [];
  warnings: SbgIssue[] = [];
  sets = new Map<string, S>();
  /** Tone-sets whose definition had an error (already reported): lines using them say nothing more. */
  broken = new Set<string>();
  blocks = new Map<string, { line: number; text: string }[]>();
  lines: TimeLine<S>[] = [];
  fadeMs = DEFAULT_FADE_MS;
  stopAtEnd = false;
  length: number | null = null;
  /** A fade mark after the tone-set's name (SBaGenX's example does it): read with a warning. */
  protected markAfterName = false;
  private lastAbs: { at: number; now: boolean } | null = null;
  /** Time lines read so far, block calls expanded (see MAX_EXPANDED_LINES). */
  private expanded = 0;

  /** A tone-set's words as this reader's set, or null after reporting why not. */
  protected abstract toneSet(line: number, name: string, words: string[]): S | null;
  /** Options other than -S -Q -E -F -L; "stop" ends the option line. */
  protected abstract option(line: number, flag: string, words: OptionWords): "stop" | void;
  /** A `name: values` line that is no tone-set (waveNN: and the like); true when handled. */
  protected abstract definition(line: number, name: string, rest: string): boolean;
  /** The set a time line names when no tone-set or block has that name (off, alloff), or undefined. */
  protected abstract undefinedSet(line: number, name: string): S | undefined;

  /** Options both readers take alike (playback and output settings, the soundtrack from stdin);
   *  false for any other. */
  protected playbackOption(line: number, flag: string, words: OptionWords): boolean {
    switch (flag) {
      case "M": this.warn(line, "-M (soundtrack from standard input) ignored: the studio has no soundtrack input"); return true;
      case "q": case "r": case "b": case "o": case "R": case "d":
        words.next(); this.warn(line, `-${flag} ignored: the studio chooses playback and output itself (48 kHz, 16-bit)`); return true;
      case "O": case "W": case "D": case "h":
        this.warn(line, `-${flag} ignored: the studio chooses playback and output itself`); return true;
      default:
        return false;
    }
  }

  error(line: number, message: string) {
    this.errors.push({ line, message });
  }
  warn(line: number, message: string) {
    this.warnings.push({ line, message });
  }

  // ---- option lines (only before anything else, as in SBaGen) -----------------------------------
  private options(line: number, text: string) {
    const words = text.split(/\s+/);
    for (let i = 0; i < words.length; i++) {
      const w = words[i];
      if (!w.startsWith("-") || w.length < 2) {
        this.error(line, `'${w}' is not an option`);
        return;
      }
      const arg: OptionWords = { next: () => words[++i], peek: () => words[i + 1], rest: () => words.splice(i + 1) };
      for (const flag of w.slice(1)) {
        switch (flag) {
          case "S": case "Q": break; // the studio always plays from the start, with no status line
          case "E": this.stopAtEnd = true; break;
          case "F": {
            const v = Number(arg.next());
            if (!(v >= 0)) this.error(line, "-F needs a fade time in milliseconds");
            else this.fadeMs = v;
            break;
          }
          case "L": {
            const v = clockSeconds(arg.next());
            if (v === null) this.error(line, "-L needs a length as hh:mm or hh:mm:ss");
            else this.length = v;
            break;
          }
          default:
            if (this.option(line, flag, arg) === "stop") return;
        }
      }
    }
  }

  // ---- time lines ----------------------------------------------------------------------------------
  /** NOW, NOW+hh:mm[:ss], hh:mm[:ss], +hh:mm[:ss] and chains like 12:00+00:20 (sbagen.c readTimeLine). */
  private timeSpec(line: number, spec: string): { at: number; now: boolean } | null {
    let p = spec;
    let at: number | null = null;
    let now = false;
    if (p.startsWith("NOW")) {
      at = 0;
      now = true;
      this.lastAbs = { at, now };
      p = p.slice(3);
    }
    while (p) {
      if (p[0] === "+") {
        if (at === null) {
          if (!this.lastAbs) {
            this.error(line, `relative time '${spec}' without an absolute time (NOW or hh:mm) before it`);
            return null;
          }
          ({ at, now } = this.lastAbs);
        }
        p = p.slice(1);
      } else if (at !== null) break;
      const m = TIME.exec(p);
      if (!m) break;
      const [hh, mm, ss] = [Number(m[1]), Number(m[2]), Number(m[3] ?? 0)];
      if (mm > 59 || ss > 59) {
        this.error(line, `time '${spec}': minutes and seconds must be 0-59`);
        return null;
      }
      const secs = hh * 3600 + mm * 60 + ss;
      p = p.slice(m[0].length);
      if (at === null) {
        if (hh > 23) {
          this.error(line, `clock time '${spec}': hours must be 0-23`);
          return null;
        }
        at = secs;
        this.lastAbs = { at, now: false };
      } else at = (at + secs) % DAY_SECONDS;
    }
    if (p || at === null) {
      this.error(line, `'${spec}' is not a time: expected NOW, NOW+hh:mm[:ss], hh:mm[:ss] or +hh:mm[:ss]`);
      return null;
    }
    return { at, now };
  }

  /** A two-character fade mark, or null after reporting it. */
  private mark(line: number, w: string): [Mark, Mark] | null {
    const fi = FADE_IN[w[0] as keyof typeof FADE_IN];
    const fo = FADE_OUT[w[1] as keyof typeof FADE_OUT];
    if (w.length !== 2 || !fi || !fo) {
      this.error(line, `'${w}' is not a fade mark: expected two of < - = (fade in) and > - = (fade out), like == or <>`);
      return null;
    }
    return [fi, fo];
  }

  private timeLine(line: number, text: string, depth = 0, from = "", calling: readonly string[] = []) {
    // Blocks calling blocks multiply: n lines nested k deep are n^k time lines. Stop at a budget
    // no playable schedule needs (each line is at least one of the timeline's steps).
    if (++this.expanded > MAX_EXPANDED_LINES) {
      if (this.expanded === MAX_EXPANDED_LINES + 1) {
        this.error(line, `the schedule expands to more than ${MAX_EXPANDED_LINES} time lines${from}; the studio holds at most ${MAX_TIMELINE_STEPS} steps`);
      }
      return;
    }
    const words = text.split(/\s+/);
    const spec = words.shift()!;
    const time = this.timeSpec(line, spec);
    let marks: [Mark, Mark] | null = ["fade", "fade"];
    if (words[0] && !/^[A-Za-z]/.test(words[0]) && !words[0].includes("/")) {
      marks = this.mark(line, words.shift()!);
      if (!marks) return;
    }
    // SBaGenX also takes the tones themselves in place of a name (`00:30 190+8/20 pink/10`, its
    // timing example): an unnamed tone-set, changed over like any other.
    if (words[0] && words[0].includes("/") && !this.sets.has(words[0]) && !this.blocks.has(words[0])) {
      const arrow = words[words.length - 1] === "->";
      const tones = arrow ? words.slice(0, -1) : words;
      const key = tones.join(" ");
      if (!this.sets.has(key) && !this.broken.has(key)) {
        const set = this.toneSet(line, key, tones);
        if (set) this.sets.set(key, set);
        else this.broken.add(key);
      }
      words.splice(0, words.length, key, ...(arrow ? ["->"] : []));
    }
    const name = words.shift();
    if (!name) {
      this.error(line, `time line without a tone-set name${from}`);
      return;
    }
    if (this.markAfterName && words[0] && words[0] !== "->" && words[0].length === 2 && /^[<=-][>=-]$/.test(words[0])) {
      this.warn(line, `the fade mark '${words[0]}' after the name is read as if it came before it (SBaGen 1.4 refuses it)`);
      marks = this.mark(line, words.shift()!)!;
    }
    const slide = words[0] === "->";
    if (slide) words.shift();
    if (words.length) {
      this.error(line, `unexpected '${words.join(" ")}' after the tone-set name${from}`);
      return;
    }
    const block = this.blocks.get(name);
    if (block) {
      if (calling.includes(name)) {
        this.error(line, `block '${name}' calls itself${from}`);
        return;
      }
      if (depth > 16) {
        this.error(line, `block '${name}' is nested more than 16 deep`);
        return;
      }
      if (slide || marks[0] !== "fade" || marks[1] !== "fade") this.warn(line, `fade marks and '->' on a block call are ignored (as SBaGen does)`);
      for (const b of block) this.timeLine(b.line, `${spec}${b.text}`, depth + 1, ` (in block '${name}' called at line ${line})`, [...calling, name]);
      return;
    }
    const set = this.sets.get(name) ?? this.undefinedSet(line, name);
    if (set === undefined) {
      if (!this.broken.has(name)) this.error(line, `'${name}' is not defined above${from}`);
      return;
    }
    if (!time) return;
    const first = this.lines[0];
    if (first && first.now !== time.now) {
      this.error(line, `NOW and clock times in one schedule: their order depends on when SBaGen is started${from}`);
      return;
    }
    this.lines.push({ line, ...time, fadeIn: marks[0], fadeOut: marks[1], name, set, slide });
  }

  read(text: string) {
    const src = text.replace(/^\uFEFF/, "").split(/\r\n|\r|\n/);
    let started = false;
    for (let i = 0; i < src.length; i++) {
      const line = i + 1;
      const body = src[i].replace(/#.*$/, "").trim();
      if (!body) continue;
      if (body.startsWith("-")) {
        if (started) this.error(line, "options are only allowed at the start of the file, before any tone-set or time");
        else this.options(line, body);
        continue;
      }
      started = true;
      const def = DEFINITION.exec(body);
      if (!def) {
        this.timeLine(line, body);
        continue;
      }
      const [, name, rest = ""] = def;
      if (rest === "{") {
        const lines: { line: number; text: string }[] = [];
        let closed = false;
        for (i++; i < src.length; i++) {
          const b = src[i].replace(/#.*$/, "").trim();
          if (!b) continue;
          if (b === "}") {
            closed = true;
            break;
          }
          if (!b.startsWith("+")) this.error(i + 1, `every line in block '${name}' must start with a relative time (+hh:mm)`);
          else lines.push({ line: i + 1, text: b });
        }
        if (!closed) this.error(line, `block '${name}' has no closing '}'`);
        else if (!lines.length) this.error(line, `block '${name}' is empty`);
        else this.blocks.set(name, lines);
        continue;
      }
      if (this.definition(line, name, rest)) continue;
      if (!rest) {
        this.error(line, `tone-set '${name}' has no tones (use '-' for silence)`);
        continue;
      }
      if (this.sets.has(name) || this.blocks.has(name)) this.warn(line, `'${name}' is defined again: later lines use this definition`);
      const set = this.toneSet(line, name, rest.split(/\s+/));
      if (set) this.sets.set(name, set);
      else this.broken.add(name);
    }
  }
}
