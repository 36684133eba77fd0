// The admin override switch (spec/accounts.md sections 4 and 6): only an admin may flip it; the
// server holds it (POST /api/admin/override {enabled}) and it is mirrored in localStorage under
// adminOverride. While a request is out, `toggling` is true ('Toggling...') and further toggles
// are ignored. A failure is logged and reported ('Failed to toggle admin override'). After the
// answer the profile is fetched again, so entitlements change at once; turning it off also
// resets the client's demo (the server has deleted the admin's demo row, so the demo is fresh:
// the full 10 minutes, not used, not expired). Another tab's switch arrives as a storage event.

import { createStore, type StoreApi } from "zustand/vanilla";
import { ADMIN_TEXT } from "../../api/rules/admin";
import { deriveEntitlements } from "../account/entitlements";
import type { SessionStore } from "../account/session-store";
import { OVERRIDE_KEY, type KeyValueStorage } from "../account/storage";

export interface OverrideState {
  toggling: boolean;
  /** Flips the override; resolves with the new value, or null when nothing changed. */
  toggle(): Promise<boolean | null>;
}

export interface OverrideDeps {
  session: StoreApi<SessionStore>;
  storage: KeyValueStorage;
  setOverride(token: string | null, enabled: boolean): Promise<boolean>;
  /** Forgets the client's demo state (the demo lifecycle reads it afresh from the server). */
  resetDemo(): void;
  /** Reports a failure to the admin (a toast); the error is logged here. */
  onFailure(text: string): void;
}

export function createOverrideStore(deps: OverrideDeps): StoreApi<OverrideState> {
  return createStore<OverrideState>()((set, get) => ({
    toggling: false,
    toggle: async () => {
      if (get().toggling) return null;
      const { token, profile, user } = deps.session.getState();
      const ent = deriveEntitlements(profile, user);
      if (!ent.isAdmin) {
        console.error(ADMIN_TEXT.overrideAdminOnly);
        deps.onFailure(ADMIN_TEXT.overrideAdminOnly);
        return null;
      }
      set({ toggling: true });
      try {
        const enabled = await deps.setOverride(token, !ent.adminOverride);
        deps.storage.setItem(OVERRIDE_KEY, String(enabled));
        if (!enabled) deps.resetDemo();
        await deps.session.getState().loadProfile(true).catch((err: unknown) => console.warn("Profile refresh after the override failed", err));
        return enabled;
      } catch (err) {
        console.error(ADMIN_TEXT.overrideFailed, err);
        deps.onFailure(ADMIN_TEXT.overrideFailed);
        return null;
      } finally {
        set({ toggling: false });
      }
    },
  }));
}

/** Keeps the localStorage mirror equal to the profile's override (admins only; removed for others). */
export function mirrorOverride(storage: KeyValueStorage, profile: { isAdmin: boolean; adminOverride?: boolean } | null): void {
  if (!profile) return;
  if (!profile.isAdmin) {
    if (storage.getItem(OVERRIDE_KEY) !== null) storage.removeItem(OVERRIDE_KEY);
    return;
  }
  const value = String(profile.adminOverride === true);
  if (storage.getItem(OVERRIDE_KEY) !== value) storage.setItem(OVERRIDE_KEY, value);
}

/** What another tab's change of the mirror means here: null when it is not about the override. */
export function overrideStorageChange(e: Pick<StorageEvent, "key" | "newValue" | "oldValue">): { turnedOff: boolean } | null {
  if (e.key !== OVERRIDE_KEY || e.newValue === e.oldValue || e.newValue === null) return null;
  return { turnedOff: e.newValue === "false" };
}
