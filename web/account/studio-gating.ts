// The studio's role gating (spec/studio.md section 6, spec/accounts.md section 6) as pure rules:
// anonymous visitors get a locked, dimmed studio in which every channel and effect shows 'Pro
// Only' (spec/studio.md section 1), channel 1 included; free users channel 1 only (channels 2-4
// forced to 0 Hz and off), sine only and no effects; Pro / unlimited users everything; admins with
// unlimited access a 12-hour maximum duration. gatePatch() turns a gate into the store changes
// that enforce it; the server enforces the same rules for every protected call.

import { DEFAULT_FREQUENCIES, type ChannelState } from "../../dsp/host/state";
import type { StudioState } from "../state/studio-store";
import { MAX_DURATION_SECONDS } from "../../dsp/host/limits";
import { STUDIO_CHANNELS } from "../../api/rules/plans";
import { tierLabel, type ClientEntitlements } from "./entitlements";
import type { SessionStatus } from "./session-store";

export type GateLevel = "pending" | "anonymous" | "free" | "full";

export interface StudioGate {
  level: GateLevel;
  /** The whole studio is dimmed and disabled (anonymous, or while a session is being restored). */
  studioLocked: boolean;
  /** Channels 1..freeChannels are usable; the rest show '🔒 Pro Only'. */
  freeChannels: number;
  waveformLocked: boolean;
  effectsLocked: boolean;
  maxDuration: number;
  /** 'Free User (59 min max)' and friends; null when nobody is signed in. */
  label: string | null;
}

export function studioGate(status: SessionStatus, ent: ClientEntitlements): StudioGate {
  if (status === "restoring") {
    // Nothing is forced until the profile answers, so a Pro user's channels are not switched off
    // for the half second a restore takes.
    return { level: "pending", studioLocked: true, freeChannels: STUDIO_CHANNELS.full, waveformLocked: false, effectsLocked: false, maxDuration: MAX_DURATION_SECONDS, label: null };
  }
  if (status !== "signed_in" || !ent.signedIn) {
    return { level: "anonymous", studioLocked: true, freeChannels: STUDIO_CHANNELS.anonymous, waveformLocked: true, effectsLocked: true, maxDuration: MAX_DURATION_SECONDS, label: null };
  }
  const full = ent.hasUnlimitedAccess;
  return {
    level: full ? "full" : "free",
    studioLocked: false,
    freeChannels: full ? STUDIO_CHANNELS.full : STUDIO_CHANNELS.free,
    waveformLocked: !full,
    effectsLocked: !full,
    maxDuration: ent.maxDuration,
    label: tierLabel(ent),
  };
}

export function isChannelLocked(gate: StudioGate, id: number): boolean {
  return id > gate.freeChannels;
}

export interface GateResult {
  patch: Partial<StudioState> | null;
  /** Channel ids this patch switched off (restored when the gate opens again). */
  forced: number[];
}

/** The store changes that make `state` obey `gate`; patch is null when it already does. */
export function gatePatch(state: Pick<StudioState, "channels" | "effects" | "duration" | "maxDuration">, gate: StudioGate): GateResult {
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

  if (gate.effectsLocked && Object.values(state.effects).some((fx) => fx.enabled)) {
    patch.effects = Object.fromEntries(
      Object.entries(state.effects).map(([id, fx]) => [id, fx.enabled ? { ...fx, enabled: false } : fx]),
    );
  }

  if (state.maxDuration !== gate.maxDuration) patch.maxDuration = gate.maxDuration;
  if (state.duration > gate.maxDuration) patch.duration = gate.maxDuration;

  return { patch: Object.keys(patch).length > 0 ? patch : null, forced };
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
