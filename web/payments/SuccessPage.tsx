// /success, the return from a paid checkout (spec/accounts.md sections 2 and 4). Without a
// session_id it redirects to /. Otherwise, under 'Payment Successful' and 'Verifying your
// subscription...', it has the server fulfil the paid session (POST /api/handle-guest-checkout),
// verifies the subscription when signed in (a failure is only a warning), refreshes the profile,
// then welcomes the user to Pro with a Start Creating button to /.

import { useEffect, useRef, useState } from "react";
import { Link, Navigate, useSearchParams } from "react-router-dom";
import { toast } from "sonner";
import { useSession } from "../account/hooks";
import { sessionStore } from "../account/session-store";
import { handleGuestCheckout, verifyCheckoutSession } from "./checkout";
import { PAY_TEXT } from "./messages";
import "./payments.css";

type Phase = "verifying" | "done" | "failed";

/** The three calls in order; "failed" only when fulfilment failed and no active plan shows. */
async function completeCheckout(sessionId: string): Promise<{ phase: Phase; userCreated: boolean }> {
  const session = sessionStore();
  const token = session.getState().token;
  let fulfilled = true;
  let userCreated = false;
  try {
    userCreated = (await handleGuestCheckout(sessionId, token)).user_created === true;
  } catch (err) {
    console.warn("Checkout could not be processed", err);
    fulfilled = false;
  }
  if (token) {
    try {
      await verifyCheckoutSession(sessionId, token);
    } catch (err) {
      console.warn("Subscription verification failed", err);
    }
    await session.getState().loadProfile(true).catch((err) => console.warn("Profile refresh failed", err));
  }
  const active = session.getState().profile?.subscription?.isActive === true;
  return { phase: fulfilled || active ? "done" : "failed", userCreated };
}

export function SuccessPage() {
  const [params] = useSearchParams();
  const sessionId = params.get("session_id");
  const status = useSession((s) => s.status);
  const [phase, setPhase] = useState<Phase>("verifying");
  const [userCreated, setUserCreated] = useState(false);
  const started = useRef(false);

  useEffect(() => {
    if (!sessionId || status === "restoring" || started.current) return;
    started.current = true;
    void completeCheckout(sessionId).then((r) => {
      setPhase(r.phase);
      setUserCreated(r.userCreated);
      if (r.phase === "done") toast.success(PAY_TEXT.welcomePro, { id: "welcome-pro" });
      else toast.error(PAY_TEXT.checkoutProcessFailed, { id: "checkout-process" });
    });
  }, [sessionId, status]);

  if (!sessionId) return <Navigate to="/" replace />;

  return (
    <main id="main" className="studio">
      <section className="panel pay-status" aria-labelledby="success-title" aria-busy={phase === "verifying"}>
        <h1 id="success-title">{PAY_TEXT.paymentSuccessful}</h1>
        {phase === "verifying" && (
          <p role="status"><span className="spinner" aria-hidden="true" /> {PAY_TEXT.verifying}</p>
        )}
        {phase === "done" && <p role="status">{PAY_TEXT.welcomePro}</p>}
        {phase === "failed" && <p role="alert">{PAY_TEXT.checkoutProcessFailed}</p>}
        {userCreated && status !== "signed_in" && (
          <p>
            We created an account for the e-mail address you paid with. <Link to="/auth">Sign in</Link> to use it.
          </p>
        )}
        <Link className="button primary" to="/">Start Creating</Link>
      </section>
    </main>
  );
}
