// The 'Admin Override' switch with its ON/OFF indicator (user menu and developer panel), the app's
// one override store, and useOverrideMirror: keeps localStorage's adminOverride equal to the
// profile and follows another tab's switch (turned off there: this tab's demo resets too).

import { useEffect } from "react";
import { toast } from "sonner";
import { useStore } from "zustand";
import type { StoreApi } from "zustand/vanilla";
import { ADMIN_TEXT } from "../../api/rules/admin";
import { useEntitlements, useSession } from "../account/hooks";
import { sessionStore } from "../account/session-store";
import { browserStorage } from "../account/storage";
import { demoStore } from "../demo/demo-singleton";
import { adminApi } from "./admin-api";
import { createOverrideStore, mirrorOverride, overrideStorageChange, type OverrideState } from "./override";

let singleton: StoreApi<OverrideState> | null = null;

export function overrideStore(): StoreApi<OverrideState> {
  singleton ??= createOverrideStore({
    session: sessionStore(),
    storage: browserStorage(),
    setOverride: adminApi.setOverride,
    resetDemo: () => demoStore().getState().reset(),
    onFailure: (text) => toast.error(text, { id: "admin-override" }),
  });
  return singleton;
}

/** Mounted once with the user menu (present on every route while signed in). */
export function useOverrideMirror(): void {
  const profile = useSession((s) => s.profile);
  useEffect(() => mirrorOverride(browserStorage(), profile), [profile]);
  useEffect(() => {
    const onStorage = (e: StorageEvent) => {
      const change = overrideStorageChange(e);
      if (!change) return;
      if (change.turnedOff) demoStore().getState().reset();
      sessionStore().getState().loadProfile(true).catch(() => undefined);
    };
    window.addEventListener("storage", onStorage);
    return () => window.removeEventListener("storage", onStorage);
  }, []);
}

export function OverrideToggle({ className }: { className?: string }) {
  const on = useEntitlements().adminOverride;
  const toggling = useStore(overrideStore(), (s) => s.toggling);
  return (
    <button
      type="button"
      role="switch"
      aria-checked={on}
      aria-busy={toggling}
      aria-disabled={toggling}
      className={`override-toggle ${className ?? ""}`}
      data-on={on}
      onClick={() => void overrideStore().getState().toggle()}
    >
      {/* The state is aria-checked; the indicator repeats it for the eye. */}
      <span>Admin Override</span>
      <span className="onoff" aria-hidden="true">
        {toggling ? ADMIN_TEXT.toggling : on ? "ON" : "OFF"}
      </span>
    </button>
  );
}
