// Pages for signed-in users only (/subscribe, /reactivate): once the session is known to be
// anonymous, `notify` (a toast) runs and the visitor goes to `signInPath`, replacing the history
// entry. Returns the session status so the page can render nothing until it is signed in.

import { useEffect } from "react";
import { useNavigate } from "react-router-dom";
import { useSession } from "./hooks";
import type { SessionStatus } from "./session-store";

/** `notify` should be stable (a module-level function). */
export function useSignedInOnly(signInPath: string, notify: () => void): SessionStatus {
  const navigate = useNavigate();
  const status = useSession((s) => s.status);
  useEffect(() => {
    if (status !== "anonymous") return;
    notify();
    navigate(signInPath, { replace: true });
  }, [status, navigate, signInPath, notify]);
  return status;
}
