// useDemoLifecycle, mounted once by App: reads the demo's status for a signed-in free user and
// forgets it on sign-out (or when the user gains unlimited access). A tab coming back to the
// foreground recounts at once (browsers slow the timers of hidden tabs).

import { useEffect } from "react";
import { useEntitlements, useSession } from "../account/hooks";
import { demoStore } from "./demo-singleton";

export function useDemoLifecycle(): void {
  const status = useSession((s) => s.status);
  const token = useSession((s) => s.token);
  const unlimited = useEntitlements().hasUnlimitedAccess;
  useEffect(() => {
    if (status !== "signed_in" || !token || unlimited) return;
    const demo = demoStore();
    demo.getState().sync(token).catch((err) => console.warn("Demo status could not be read", err));
    const recount = () => {
      if (document.visibilityState === "visible") demo.getState().tick();
    };
    document.addEventListener("visibilitychange", recount);
    return () => {
      document.removeEventListener("visibilitychange", recount);
      demo.getState().reset();
    };
  }, [status, token, unlimited]);
}
