// The billing portal as a page sees it (/billing, /update-payment): opens automatically once the
// session is known, then on demand; tracks opening / opened / blocked / failed. Without a token
// the visitor goes to sign in; a 401 says the session expired and goes to /auth, coming back to
// `returnPath` after sign-in.

import { useCallback, useEffect, useRef, useState } from "react";
import { useNavigate } from "react-router-dom";
import { toast } from "sonner";
import { ApiRequestError } from "../account/api";
import { useSession } from "../account/hooks";
import { sessionStore } from "../account/session-store";
import { PAY_TEXT, portalReason } from "./messages";
import { openBillingPortal } from "./portal";

export type PortalState =
  | { kind: "opening" }
  | { kind: "opened"; url: string }
  | { kind: "blocked"; url: string }
  | { kind: "failed"; reason: string };

export interface PortalPageOptions {
  returnPath: string;
  /** What to do without a session (a toast and a navigation). `arriving`: on the page's own
   *  opening (a visitor who came signed out) rather than a later Try Again. */
  onSignedOut(arriving: boolean): void;
  /** Called with the reason when the portal could not be opened. */
  onFailure?(reason: string): void;
}

export function usePortalPage({ returnPath, onSignedOut, onFailure }: PortalPageOptions): { state: PortalState; open(): void } {
  const navigate = useNavigate();
  const status = useSession((s) => s.status);
  const [state, setState] = useState<PortalState>({ kind: "opening" });
  const started = useRef(false);

  const open = useCallback(async (arriving = false) => {
    const token = sessionStore().getState().token;
    if (!token) {
      onSignedOut(arriving);
      return;
    }
    setState({ kind: "opening" });
    try {
      const { opened, url } = await openBillingPortal(token);
      setState(opened ? { kind: "opened", url } : { kind: "blocked", url });
    } catch (err) {
      if (err instanceof ApiRequestError && err.status === 401) {
        toast.error(PAY_TEXT.sessionExpired, { id: "session-expired" });
        sessionStore().getState().clear();
        navigate(`/auth?returnUrl=${encodeURIComponent(returnPath)}`, { replace: true });
        return;
      }
      const reason = portalReason(err);
      setState({ kind: "failed", reason });
      onFailure?.(reason);
    }
  }, [navigate, returnPath, onSignedOut, onFailure]);

  useEffect(() => {
    if (status === "restoring" || started.current) return;
    started.current = true;
    void open(true);
  }, [status, open]);

  return { state, open: () => void open() };
}
