// /update-payment (spec/accounts.md sections 2 and 8): signed-in only. Opens the billing portal
// automatically, and offers Manage Billing & Payment (open it again) and Back to App. A failure
// shows 'Failed to open billing portal: {reason}'; an expired session goes to /auth and back here.

import { useCallback } from "react";
import { Link, useNavigate } from "react-router-dom";
import { toast } from "sonner";
import { useSession } from "../account/hooks";
import { PAY_TEXT } from "./messages";
import { PortalFallback } from "./PortalFallback";
import { usePortalPage } from "./use-portal";
import "./payments.css";

const RETURN_PATH = "/update-payment";
/** The auth screen's entry rule for this page: its toast, and back here after sign-in. */
const SIGN_IN_PATH = "/auth?message=update-payment";

export function UpdatePaymentPage() {
  const navigate = useNavigate();
  const status = useSession((s) => s.status);
  const onSignedOut = useCallback(() => navigate(SIGN_IN_PATH, { replace: true }), [navigate]);
  const onFailure = useCallback(
    (reason: string) => void toast.error(PAY_TEXT.updatePaymentFailed(reason), { id: "update-payment" }),
    [],
  );
  const { state, open } = usePortalPage({ returnPath: RETURN_PATH, onSignedOut, onFailure });

  if (status !== "signed_in") return <main id="main" className="studio" aria-busy="true" />;

  return (
    <main id="main" className="studio">
      <section className="panel pay-status" aria-labelledby="update-payment-title" aria-busy={state.kind === "opening"}>
        <h1 id="update-payment-title">Update Payment Method</h1>
        <p>Change your card, download invoices or cancel your plan in the secure billing portal.</p>
        {state.kind === "opening" && (
          <p role="status"><span className="spinner" aria-hidden="true" /> Opening the billing portal...</p>
        )}
        {state.kind === "opened" && <p role="status">{PAY_TEXT.portalOpened}.</p>}
        {state.kind === "blocked" && <PortalFallback url={state.url} />}
        {state.kind === "failed" && <p role="alert">{PAY_TEXT.updatePaymentFailed(state.reason)}</p>}
        <div className="actions-row">
          <button type="button" className="button primary" onClick={open} disabled={state.kind === "opening"}>
            Manage Billing &amp; Payment
          </button>
          <Link className="button" to="/app">Back to App</Link>
        </div>
      </section>
    </main>
  );
}
