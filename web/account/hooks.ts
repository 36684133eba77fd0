// React access to the session: useSession (a selector on the session store), useEntitlements (the
// display-only rights derived from the profile), useStudioGate (what the studio locks, a running
// demo included) and useEnforceStudioGate (keeps the studio store inside the gate; mounted once,
// by App, so it holds on every route).

import { useEffect, useMemo } from "react";
import { useStore } from "zustand";
import type { StoreApi } from "zustand/vanilla";
import type { StudioStore } from "../state/studio-store";
import { useDemo } from "../demo/demo-singleton";
import { deriveEntitlements, type ClientEntitlements } from "./entitlements";
import { sessionStore, type SessionStore } from "./session-store";
import {
  gatePatch, recordTrim, restoredTimeline, studioGate, unlockPatch, type StudioGate, type TrimmedTimeline,
} from "./studio-gating";

export function useSession<T>(selector: (s: SessionStore) => T): T {
  return useStore(sessionStore(), selector);
}

export function useEntitlements(): ClientEntitlements {
  const profile = useSession((s) => s.profile);
  const user = useSession((s) => s.user);
  const status = useSession((s) => s.status);
  return useMemo(
    () => deriveEntitlements(profile, status === "signed_in" ? (profile?.user ?? user) : null),
    [profile, user, status],
  );
}

export function useStudioGate(): StudioGate {
  const status = useSession((s) => s.status);
  const ent = useEntitlements();
  const demoActive = useDemo((s) => s.phase === "active");
  return useMemo(() => studioGate(status, ent, demoActive), [status, ent, demoActive]);
}

/** Channels each studio store had switched off by a gate. Kept beside the store, not in the
 *  page, so that channels locked while signed out come back after a sign-in on /auth (the studio
 *  page unmounts while the visitor is there). */
const forcedChannels = new WeakMap<StoreApi<StudioStore>, Set<number>>();

/** Per store: the timeline as it was before a gate trimmed it, and what the trim made of it. */
const trimmedTimelines = new WeakMap<StoreApi<StudioStore>, TrimmedTimeline>();

function forcedOf(store: StoreApi<StudioStore>): Set<number> {
  let forced = forcedChannels.get(store);
  if (!forced) forcedChannels.set(store, (forced = new Set()));
  return forced;
}

/** Applies the gate to the studio store now and after every store change (a loaded preset
 *  cannot switch a locked channel back on); restores forced channels when the gate opens. A
 *  sign-out while playing stops the sound, since the locked studio has no Stop button. */
export function useEnforceStudioGate(store: StoreApi<StudioStore>, gate: StudioGate, audio?: { stop(): void }): void {
  useEffect(() => {
    if (gate.level === "anonymous" && store.getState().isPlaying) audio?.stop();
  }, [store, gate.level, audio]);
  useEffect(() => {
    const forced = forcedOf(store);
    const unlock = unlockPatch(store.getState(), gate, forced);
    if (unlock) store.setState(unlock);
    for (const id of [...forced]) if (id <= gate.freeChannels) forced.delete(id);
    // A timeline trimmed by a closed gate comes back whole when the gate opens, unless it was
    // edited or replaced in between.
    const whole = restoredTimeline(trimmedTimelines.get(store) ?? null, store.getState().timeline, gate);
    if (whole) {
      trimmedTimelines.delete(store);
      store.setState({ timeline: whole });
    }
    const enforce = () => {
      const result = gatePatch(store.getState(), gate);
      for (const id of result.forced) forced.add(id);
      const trim = recordTrim(trimmedTimelines.get(store) ?? null, result);
      if (trim) trimmedTimelines.set(store, trim);
      if (result.patch) store.setState(result.patch);
    };
    enforce();
    return store.subscribe(enforce);
  }, [store, gate]);
}
