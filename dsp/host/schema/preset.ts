// Shared presets and share links: the ONE validation of a preset's data (the API checks it before
// storing, the studio before loading a /preset/{id} or ?config= link, the CLI before rendering)
// and the base64url codec of the ?config= parameter. Dependency: zod only.
//
// Rules (spec/studio.md sections 3 and 5): a state whose channels, effects or duration is missing
// or falsy is invalid, and so is a value of the wrong type; everything else is made to fit:
// unknown effect ids and extra keys are dropped, effects left out get their defaults (off),
// numbers are clamped to the catalogue's ranges, unknown waveforms and enum options fall back to
// their defaults, frequencies are clamped to 0..MAX_FREQUENCY_HZ and rounded to 2 decimals, and
// the duration is clamped to MIN_DURATION_SECONDS..MAX_DURATION_UNLIMITED_SECONDS (the studio
// then applies the visitor's own maximum). Channels are matched by id; ids a preset leaves out
// are switched off.

import { z } from "zod";
import { legacyVolume } from "../model/volume";
import { EFFECTS, type EffectDef } from "../model/catalogue";
import { MAX_DURATION_UNLIMITED_SECONDS, MAX_FREQUENCY_HZ, MIN_DURATION_SECONDS } from "../model/limits";
import { clamp, hasTimeline, timelineSchema } from "./timeline";
import { soundtrackRefSchema, voiceSlotsSchema } from "./voices";
import { recordingPlacementsSchema, type RecordingPlacement } from "./recordings";
import { WAVEFORMS, defaultEffect, type AudioState, type ChannelState, type EffectState, type Waveform } from "./state";

/** What a preset stores and a share link carries. */
export type PresetData = Pick<AudioState, "channels" | "effects" | "duration" | "timeline" | "voices" | "soundtrack" | "recordings">;

/** Either the state to load, or what is wrong with the input (for "Invalid preset: {error}"). */
export type PresetResult = { ok: true; state: PresetData } | { ok: false; error: string };

/** The preset format written today (the `version` key of a preset's JSON). 2: a volume above 0.5
 *  is louder than 0.5 (the mixer: +6 dB at 1). A preset without it was saved when every volume
 *  above 0.5 played as 0.5: loading it lowers those to 0.5, so it sounds as loud as it did. */
export const PRESET_VERSION = 2;

/** Preset data marked with today's format (what is stored and shared, so it loads as it is). */
function versioned(data: PresetData): PresetData {
  return Object.assign(data, { version: PRESET_VERSION });
}

const round2 = (v: number): number => Math.round(v * 100) / 100;

const aNumber = z.number({ error: "must be a number" });
const aBoolean = z.boolean({ error: "must be true or false" });
const anObject = (what = "an object") => ({ error: `must be ${what}` });

/** Present and truthy: spec 5 calls a preset without channels, effects or duration invalid. */
function required<T extends z.ZodType>(schema: T) {
  return z.unknown().refine((v) => !!v, { error: "is missing", abort: true }).pipe(schema);
}

/** An option of a list, or the fallback for anything else (a name the catalogue does not know). */
function oneOf<T extends string>(options: readonly T[], fallback: T) {
  return z.unknown().optional().transform((v): T => (options.includes(v as T) ? (v as T) : fallback));
}

const CHANNEL_ID = { error: "must be a whole number from 1 to 4" };

const channelInput = z
  .object(
    {
      id: z.number(CHANNEL_ID).int(CHANNEL_ID).min(1, CHANNEL_ID).max(4, CHANNEL_ID),
      frequency: aNumber.transform((f) => round2(clamp(f, 0, MAX_FREQUENCY_HZ))),
      waveform: oneOf<Waveform>(WAVEFORMS, "sine"),
      volume: aNumber.optional().transform((v) => (v === undefined ? 0.5 : clamp(v, 0, 1))),
      enabled: aBoolean.optional(),
      muted: aBoolean.optional(),
      solo: aBoolean.optional(),
    },
    anObject(),
  )
  .transform((c): ChannelState => {
    const { muted, solo, ...rest } = c;
    return { ...rest, enabled: c.enabled ?? c.frequency > 0, ...(muted ? { muted } : {}), ...(solo ? { solo } : {}) };
  });

const channelsInput = z
  .array(channelInput, { error: "must be a list of channels" })
  .min(1, { error: "must hold 1 to 4 channels" })
  .max(4, { error: "must hold 1 to 4 channels" })
  .refine((list) => new Set(list.map((c) => c.id)).size === list.length, { error: "must not repeat a channel id" })
  .transform((list): ChannelState[] =>
    [1, 2, 3, 4].map((id) => list.find((c) => c.id === id) ?? { id, frequency: 0, waveform: "sine", volume: 0.5, enabled: false }),
  );

function effectInput(def: EffectDef) {
  const extras = Object.fromEntries(
    def.extras.map((x) => [
      x.key,
      x.kind === "enum"
        ? oneOf(x.options, x.default)
        : aNumber.optional().transform((v) => (v === undefined ? x.default : clamp(v, x.min, x.max))),
    ]),
  );
  return z
    .object(
      {
        enabled: aBoolean.optional().transform((on) => on ?? false),
        value: aNumber.optional().transform((v) => (v === undefined ? def.default : clamp(v, def.min, def.max))),
        ...extras,
      },
      anObject(),
    )
    .transform((fx) => fx as EffectState);
}

// z.object drops keys outside its shape: that is how unknown effect ids go away.
const effectsInput = z
  .object(Object.fromEntries(EFFECTS.map((d) => [d.id, effectInput(d).optional()])), anObject("an object of effects"))
  .transform((given): Record<string, EffectState> =>
    Object.fromEntries(EFFECTS.map((d) => [d.id, (given[d.id] as EffectState | undefined) ?? defaultEffect(d)])),
  );

const durationInput = aNumber.transform((d) => Math.round(clamp(d, MIN_DURATION_SECONDS, MAX_DURATION_UNLIMITED_SECONDS)));

/** An older preset's JSON (no `version` from PRESET_VERSION on) with its channel volumes, at 0:00
 *  and in every step, as loud as they played (legacyVolume); anything else as it is. */
function migrateVolumes(raw: unknown): unknown {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) return raw;
  const p = raw as Record<string, unknown>;
  if (typeof p.version === "number" && p.version >= PRESET_VERSION) return raw;
  const channel = (c: unknown) => {
    const v = (c as { volume?: unknown } | null)?.volume;
    return typeof v === "number" && v > legacyVolume(v) ? { ...(c as object), volume: legacyVolume(v) } : c;
  };
  const channels = (list: unknown) => (Array.isArray(list) ? list.map(channel) : list);
  const out: Record<string, unknown> = { ...p, channels: channels(p.channels) };
  const timeline = p.timeline as { steps?: unknown } | null | undefined;
  if (timeline && typeof timeline === "object" && Array.isArray(timeline.steps)) {
    const steps = timeline.steps.map((s: unknown) =>
      s && typeof s === "object" && "channels" in s ? { ...s, channels: channels((s as { channels: unknown }).channels) } : s,
    );
    out.timeline = { ...timeline, steps };
  }
  return out;
}

/** The recordings a preset carries: the ticked ones (undefined when none is). */
function sharedOnly(r: RecordingPlacement[] | undefined): RecordingPlacement[] | undefined {
  const kept = r?.filter((p) => p.shared === true);
  return kept && kept.length > 0 ? kept : undefined;
}

/** THE preset data schema: unknown JSON in, a complete, in-range PresetData out. */
export const presetDataSchema: z.ZodType<PresetData, unknown> = z.object(
  {
    channels: required(channelsInput),
    effects: required(effectsInput),
    duration: required(durationInput),
    // Optional: a preset without steps is a sound that does not change over time.
    timeline: timelineSchema.optional().transform((t) => (hasTimeline(t) ? t : undefined)),
    // Optional: voices beside the channels (an SBaGen schedule's sound); old presets have none.
    voices: voiceSlotsSchema.optional().transform((v) => (v && v.length > 0 ? v : undefined)),
    // Optional: the name of the recording the mix voices play (never the audio).
    soundtrack: soundtrackRefSchema.optional(),
    // Optional: the account's voice recordings placed in the session, by id (never the audio); a
    // shared preset keeps only those the user ticked (shared), which its link may then fetch.
    recordings: recordingPlacementsSchema.optional().transform((r) => sharedOnly(r)),
  },
  anObject("an object with channels, effects and duration"),
).transform((p): PresetData => {
  const data: PresetData = { channels: p.channels, effects: p.effects, duration: p.duration };
  return {
    ...data,
    ...(p.timeline ? { timeline: p.timeline } : {}),
    ...(p.voices ? { voices: p.voices } : {}),
    ...(p.soundtrack ? { soundtrack: p.soundtrack } : {}),
    ...(p.recordings ? { recordings: p.recordings } : {}),
  };
});

function issuePath(path: readonly PropertyKey[]): string {
  return path.reduce<string>((out, key) => (typeof key === "number" ? `${out}[${key}]` : out ? `${out}.${String(key)}` : String(key)), "");
}

/** The first problem of a failed parse as one line: "channels[0].frequency must be a number". */
export function presetIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return "it is not a preset";
  const where = issuePath(issue.path);
  return where ? `${where} ${issue.message}` : `the preset ${issue.message}`;
}

/** Validates and normalises any value (parsed JSON) as preset data, an older preset's volumes
 *  migrated; the result carries today's version. Never throws. */
export function parsePreset(raw: unknown): PresetResult {
  const parsed = presetDataSchema.safeParse(migrateVolumes(raw));
  return parsed.success ? { ok: true, state: versioned(parsed.data) } : { ok: false, error: presetIssue(parsed.error) };
}

/** The part of a studio state that a preset or share link carries. */
export function presetData(state: PresetData): PresetData {
  const data: PresetData = versioned({ channels: state.channels, effects: state.effects, duration: state.duration });
  return {
    ...data,
    ...(hasTimeline(state.timeline) ? { timeline: state.timeline } : {}),
    ...(state.voices && state.voices.length > 0 ? { voices: state.voices } : {}),
    ...(state.soundtrack ? { soundtrack: state.soundtrack } : {}),
    ...(sharedOnly(state.recordings) ? { recordings: sharedOnly(state.recordings) } : {}),
  };
}

/** Largest JSON body the API takes for a request that carries a sound (sharing a preset, exporting
 *  a video): room for the longest state the preset schema accepts once normalised, 4.67 MB (1000
 *  timeline steps, each setting all four channels, every effect, 32 voices and a 64-character
 *  label; tests/unit/dsp/host/schema/preset-size.test.ts builds it). Other JSON routes keep 64 KiB. */
export const MAX_SOUND_BODY_BYTES = 5 * 1024 * 1024;

// ---- the ?config= codec ------------------------------------------------------------------------
// base64url (RFC 4648 section 5) of the UTF-8 JSON, without padding. Decoding also accepts the
// standard alphabet, padding, percent-encoding, and the spaces a query string makes of '+'.

/** Longest config accepted: the base64 of the API's 64 KiB body limit. */
export const MAX_CONFIG_LENGTH = Math.ceil((64 * 1024) / 3) * 4;

export function encodeConfig(state: PresetData): string {
  const bytes = new TextEncoder().encode(JSON.stringify(presetData(state)));
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** The JSON a config value holds, or what is wrong with it; never throws. */
export function decodeConfigJson(value: string): { ok: true; json: unknown } | { ok: false; error: string } {
  let text = String(value).trim();
  if (text === "") return { ok: false, error: "it is empty" };
  if (text.length > MAX_CONFIG_LENGTH * 3) return { ok: false, error: "it is too long" };
  if (text.includes("%")) {
    try {
      text = decodeURIComponent(text);
    } catch {
      return { ok: false, error: "it is not base64" };
    }
  }
  const b64 = text.replace(/ /g, "+").replace(/\s+/g, "").replace(/-/g, "+").replace(/_/g, "/").replace(/=+$/, "");
  if (b64.length > MAX_CONFIG_LENGTH) return { ok: false, error: "it is too long" };
  if (!/^[A-Za-z0-9+/]*$/.test(b64) || b64.length % 4 === 1) return { ok: false, error: "it is not base64" };
  let json: unknown;
  try {
    const binary = atob(b64 + "=".repeat((4 - (b64.length % 4)) % 4));
    const bytes = Uint8Array.from(binary, (ch) => ch.charCodeAt(0));
    json = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes));
  } catch {
    return { ok: false, error: "it does not decode to JSON" };
  }
  return { ok: true, json };
}

/** A share link's config value to preset data (decodeConfigJson, then parsePreset); never throws. */
export function decodeConfig(value: string): PresetResult {
  const decoded = decodeConfigJson(value);
  return decoded.ok ? parsePreset(decoded.json) : decoded;
}
