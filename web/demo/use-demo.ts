// useDemoLifecycle, mounted once by App: reads the demo's status for a signed-in free user and
// forgets it on sign-out (or when the user gains unlimited access).

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
    return () => demo.getState().reset();
  }, [status, token, unlimited]);
}
