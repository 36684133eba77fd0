// /billing (spec/accounts.md sections 2 and 8): opens the billing portal in a new tab at once,
// with a spinner meanwhile. On failure: 'Unable to Open Billing' with Try Again and Back to App.
// Without a session: 'Please sign in to manage your billing' (info) for a visitor who came signed
// out, 'Please sign in again to continue' for a session lost on the page; then /auth.

import { useCallback } from "react";
import { Link, useNavigate } from "react-router-dom";
import { toast } from "sonner";
import { PAY_TEXT } from "./messages";
import { PortalFallback } from "./PortalFallback";
import { usePortalPage } from "./use-portal";
import "./payments.css";

const RETURN_PATH = "/billing";

export function BillingPage() {
  const navigate = useNavigate();
  const onSignedOut = useCallback(
    (arriving: boolean) => {
      // A visitor who came signed out is asked to sign in; a session lost on the page, to sign in again.
      if (arriving) toast.info(PAY_TEXT.signInToManageBilling, { id: "billing-sign-in" });
      else toast.error(PAY_TEXT.billingSignInAgain, { id: "billing-sign-in" });
      navigate(`/auth?returnUrl=${encodeURIComponent(RETURN_PATH)}`, { replace: true });
    },
    [navigate],
  );
  const { state, open } = usePortalPage({ returnPath: RETURN_PATH, onSignedOut });

  if (state.kind === "failed") {
    return (
      <main id="main" className="studio">
        <section className="panel pay-status" aria-labelledby="billing-title">
          <h1 id="billing-title">{PAY_TEXT.billingPageTitle}</h1>
          <p role="alert">
            {PAY_TEXT.billingPageFailed}
            {state.reason !== "Please try again." && <span className="reason"> ({state.reason})</span>}
          </p>
          <div className="actions-row">
            <button type="button" className="button primary" onClick={open}>Try Again</button>
            <Link className="button" to="/app">Back to App</Link>
          </div>
        </section>
      </main>
    );
  }

  return (
    <main id="main" className="studio">
      <section className="panel pay-status" aria-labelledby="billing-title" aria-busy={state.kind === "opening"}>
        <h1 id="billing-title">Billing</h1>
        {state.kind === "opening" && (
          <p role="status"><span className="spinner big-spinner" aria-hidden="true" /> Opening the billing portal...</p>
        )}
        {state.kind === "opened" && <p role="status">{PAY_TEXT.portalOpened}.</p>}
        {state.kind === "blocked" && <PortalFallback url={state.url} />}
        <div className="actions-row">
          {state.kind === "opened" && <button type="button" className="button" onClick={open}>Open Again</button>}
          <Link className="button" to="/app">Back to App</Link>
        </div>
      </section>
    </main>
  );
}
