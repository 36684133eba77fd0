// The studio's role gating (spec/studio.md section 6, spec/accounts.md section 6) as pure rules:
// anonymous visitors get a locked, dimmed studio in which every channel and effect shows 'Pro
// Only' (spec/studio.md section 1), channel 1 included; free users channel 1 only (channels 2-4
// forced to 0 Hz and off), sine only and no effects; a free user's running demo (server-confirmed)
// adds channel 2 and Amplitude Mod, Ring Mod and Chorus (spec/studio.md section 4); Pro /
// unlimited users everything; the maximum duration is the plan's (api/rules/plan-access.ts: 12
// hours for the Commercial License, a commercial grant and admins with unlimited access).
// gatePatch() turns a gate into the store changes that enforce it (so when a demo ends, channel 2
// and the demo effects are switched off); the server enforces the same rules for every call.

import { DEFAULT_FREQUENCIES, type ChannelState } from "../../dsp/host/schema/state";
import type { StudioState } from "../state/studio-store";
import { hasTimeline, type Timeline, type TimelineStep } from "../../dsp/host/schema/timeline";
import { maxExportSeconds } from "../../api/rules/plan-access";
import { DEMO_CHANNELS, DEMO_EFFECTS, STUDIO_CHANNELS } from "../../api/rules/plans";
import { tierLabel, type ClientEntitlements } from "./entitlements";
import type { SessionStatus } from "./session-store";

export type GateLevel = "pending" | "anonymous" | "free" | "demo" | "full";

export interface StudioGate {
  level: GateLevel;
  /** The whole studio is dimmed and disabled (anonymous, or while a session is being restored). */
  studioLocked: boolean;
  /** Channels 1..freeChannels are usable; the rest show '🔒 Pro Only'. */
  freeChannels: number;
  waveformLocked: boolean;
  /** Effects are locked, except those in demoEffects. */
  effectsLocked: boolean;
  /** Effect ids a running demo unlocks (empty outside a demo). */
  demoEffects: readonly string[];
  maxDuration: number;
  /** 'Free User (59 min max)' and friends; null when nobody is signed in. */
  label: string | null;
}

const NONE: readonly string[] = [];

/** `demoActive`: the server confirmed a running demo for this free user. */
export function studioGate(status: SessionStatus, ent: ClientEntitlements, demoActive = false): StudioGate {
  if (status === "restoring") {
    // Nothing is forced until the profile answers, so a Pro user's channels are not switched off
    // for the half second a restore takes.
    return { level: "pending", studioLocked: true, freeChannels: STUDIO_CHANNELS.full, waveformLocked: false, effectsLocked: false, demoEffects: NONE, maxDuration: maxExportSeconds(null), label: null };
  }
  if (status !== "signed_in" || !ent.signedIn) {
    return { level: "anonymous", studioLocked: true, freeChannels: STUDIO_CHANNELS.anonymous, waveformLocked: true, effectsLocked: true, demoEffects: NONE, maxDuration: maxExportSeconds(null), label: null };
  }
  const full = ent.hasUnlimitedAccess;
  const demo = !full && demoActive;
  return {
    level: full ? "full" : demo ? "demo" : "free",
    studioLocked: false,
    freeChannels: full ? STUDIO_CHANNELS.full : demo ? DEMO_CHANNELS : STUDIO_CHANNELS.free,
    waveformLocked: !full,
    effectsLocked: !full,
    demoEffects: demo ? DEMO_EFFECTS : NONE,
    maxDuration: ent.maxDuration,
    label: tierLabel(ent),
  };
}

/** WAV export and preset sharing (spec 6: Pro or unlimited only): locked for free accounts and
 *  during the demo, which opens channels and effects, not these. Anonymous visitors get the whole
 *  studio disabled instead. */
export function isProActionLocked(gate: StudioGate): boolean {
  return gate.level === "free" || gate.level === "demo";
}

/** The studio's admin tools, quantum and sequential modes and Upload to Store (spec 6): admins with
 *  the override on only (Export Video is every plan's: api/rules/plan-access.ts mayExportVideo).
 *  The server checks the same right (adminStudioFeatures, or the admin role for marketplace
 *  uploads) for every call these tools make. The user menu's
 *  Temp Access dialog is offered to every admin, as the admin API allows (spec/accounts.md 2). */
export function hasAdminStudioTools(ent: Pick<ClientEntitlements, "isAdmin" | "adminOverride">): boolean {
  return ent.isAdmin && ent.adminOverride;
}

export function isChannelLocked(gate: StudioGate, id: number): boolean {
  return id > gate.freeChannels;
}

export function isEffectLocked(gate: StudioGate, id: string): boolean {
  return gate.effectsLocked && !gate.demoEffects.includes(id);
}

/** Whether a channel (by number) or an effect (by id) is open only thanks to the running demo:
 *  those carry the '🎉 Demo' badge (channels 1 and 2, and the three demo effects). */
export function isDemoUnlocked(gate: StudioGate, item: number | string): boolean {
  if (gate.level !== "demo") return false;
  return typeof item === "number" ? item <= gate.freeChannels : gate.demoEffects.includes(item);
}

export interface GateResult {
  patch: Partial<StudioState> | null;
  /** Channel ids this patch switched off (restored when the gate opens again). */
  forced: number[];
  /** The timeline before this patch trimmed it (restored when the gate opens again). */
  timelineBefore?: Timeline;
}

/** A timeline whose steps only do what the gate allows: a step cannot switch on a locked channel,
 *  change its waveform where waveforms are locked, or switch on a locked effect (those parts of
 *  the step are left out; the rest of it stays). null when the timeline already obeys. */
export function gateTimeline(timeline: Timeline | undefined, gate: StudioGate): Timeline | null {
  if (!hasTimeline(timeline) || gate.level === "pending") return null;
  let changed = false;
  const steps = timeline.steps.map((step): TimelineStep => {
    let next = step;
    if (step.channels) {
      const channels = step.channels
        .filter((c) => !isChannelLocked(gate, c.id))
        .map((c) => (gate.waveformLocked && c.waveform !== undefined && c.waveform !== "sine" ? { ...c, waveform: "sine" as const } : c));
      if (channels.length !== step.channels.length || channels.some((c, i) => c !== step.channels?.[i])) next = { ...next, channels };
    }
    if (step.effects) {
      const locked = Object.entries(step.effects).filter(([id, fx]) => fx.enabled === true && isEffectLocked(gate, id));
      if (locked.length > 0) {
        const effects = { ...step.effects };
        for (const [id, fx] of locked) effects[id] = { ...fx, enabled: false };
        next = { ...next, effects };
      }
    }
    if (next !== step) changed = true;
    return next;
  });
  return changed ? { steps } : null;
}

/** The store changes that make `state` obey `gate`; patch is null when it already does. */
export function gatePatch(state: Pick<StudioState, "channels" | "effects" | "duration" | "maxDuration" | "timeline">, gate: StudioGate): GateResult {
  if (gate.level === "pending") return { patch: null, forced: [] };
  const patch: Partial<StudioState> = {};
  const forced: number[] = [];

  let channelsChanged = false;
  const channels = state.channels.map((c): ChannelState => {
    let next = c;
    if (isChannelLocked(gate, c.id) && (c.enabled || c.frequency !== 0)) {
      next = { ...next, enabled: false, frequency: 0 };
      forced.push(c.id);
    }
    if (gate.waveformLocked && next.waveform !== "sine") next = { ...next, waveform: "sine" };
    if (next !== c) channelsChanged = true;
    return next;
  });
  if (channelsChanged) patch.channels = channels;

  const stopped = Object.entries(state.effects).filter(([id, fx]) => fx.enabled && isEffectLocked(gate, id));
  if (stopped.length > 0) {
    patch.effects = { ...state.effects };
    for (const [id, fx] of stopped) patch.effects[id] = { ...fx, enabled: false };
  }

  if (state.maxDuration !== gate.maxDuration) patch.maxDuration = gate.maxDuration;
  if (state.duration > gate.maxDuration) patch.duration = gate.maxDuration;

  const timeline = gateTimeline(state.timeline, gate);
  if (timeline) patch.timeline = timeline;

  return { patch: Object.keys(patch).length > 0 ? patch : null, forced, ...(timeline ? { timelineBefore: state.timeline } : {}) };
}

/** What a gate trimmed from a timeline: the original and what the trim made of it. */
export interface TrimmedTimeline {
  before: Timeline;
  after: Timeline;
}

/** The record to keep after a gate patch (null: nothing was trimmed; an earlier record is kept
 *  when the trim was of an already trimmed timeline). */
export function recordTrim(earlier: TrimmedTimeline | null, result: GateResult): TrimmedTimeline | null {
  if (!result.patch?.timeline || !result.timelineBefore) return earlier;
  const before = earlier && earlier.after === result.timelineBefore ? earlier.before : result.timelineBefore;
  return { before, after: result.patch.timeline };
}

/** The whole timeline again once `gate` allows all of it, unless it was edited or replaced since. */
export function restoredTimeline(trimmed: TrimmedTimeline | null, current: Timeline | undefined, gate: StudioGate): Timeline | null {
  if (!trimmed || current !== trimmed.after || gate.level === "pending") return null;
  return gateTimeline(trimmed.before, gate) === null ? trimmed.before : null;
}

/** Switches back on the channels a gate forced off, once the gate allows them again. */
export function unlockPatch(
  state: Pick<StudioState, "channels" | "lastTyped">,
  gate: StudioGate,
  forced: ReadonlySet<number>,
): Partial<StudioState> | null {
  let changed = false;
  const channels = state.channels.map((c, i) => {
    if (!forced.has(c.id) || isChannelLocked(gate, c.id) || c.enabled || c.frequency !== 0) return c;
    changed = true;
    return { ...c, enabled: true, frequency: state.lastTyped[i] ?? DEFAULT_FREQUENCIES[i] ?? 432 };
  });
  return changed ? { channels } : null;
}
