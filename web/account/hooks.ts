// React access to the session: useSession (a selector on the session store), useEntitlements (the
// display-only rights derived from the profile), useStudioGate (what the studio locks) and
// useEnforceStudioGate (keeps the studio store inside the gate; mounted once, by StudioPage).

import { useEffect, useMemo, useRef } from "react";
import { useStore } from "zustand";
import type { StoreApi } from "zustand/vanilla";
import type { StudioStore } from "../state/studio-store";
import { deriveEntitlements, type ClientEntitlements } from "./entitlements";
import { sessionStore, type SessionStore } from "./session-store";
import { gatePatch, studioGate, unlockPatch, type StudioGate } from "./studio-gating";

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
  return useMemo(() => studioGate(status, ent), [status, ent]);
}

/** Applies the gate to the studio store now and after every store change (a loaded preset
 *  cannot switch a locked channel back on); restores forced channels when the gate opens. A
 *  sign-out while playing stops the sound, since the locked studio has no Stop button. */
export function useEnforceStudioGate(store: StoreApi<StudioStore>, gate: StudioGate, audio?: { stop(): void }): void {
  const forced = useRef(new Set<number>());
  useEffect(() => {
    if (gate.level === "anonymous" && store.getState().isPlaying) audio?.stop();
  }, [store, gate.level, audio]);
  useEffect(() => {
    const unlock = unlockPatch(store.getState(), gate, forced.current);
    if (unlock) store.setState(unlock);
    for (const id of [...forced.current]) if (id <= gate.freeChannels) forced.current.delete(id);
    const enforce = () => {
      const { patch, forced: ids } = gatePatch(store.getState(), gate);
      for (const id of ids) forced.current.add(id);
      if (patch) store.setState(patch);
    };
    enforce();
    return store.subscribe(enforce);
  }, [store, gate]);
}
