// The app's one demo store: its expiry toasts 'Demo mode expired. Upgrade to continue using all
// features.' and refreshes the profile (the server's entitlements end with the demo too).

import { toast } from "sonner";
import { useStore } from "zustand";
import type { StoreApi } from "zustand/vanilla";
import { sessionStore } from "../account/session-store";
import { PAY_TEXT } from "../payments/messages";
import { createDemoStore, type DemoStore } from "./demo-store";

let singleton: StoreApi<DemoStore> | null = null;

export function demoStore(): StoreApi<DemoStore> {
  singleton ??= createDemoStore({
    onExpired: () => {
      toast.warning(PAY_TEXT.demoExpired, { id: "demo-expired" });
      sessionStore().getState().loadProfile(true).catch(() => undefined);
    },
  });
  return singleton;
}

export function useDemo<T>(selector: (s: DemoStore) => T): T {
  return useStore(demoStore(), selector);
}
