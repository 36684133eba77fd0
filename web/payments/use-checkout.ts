// React access to the plans and checkout: usePlans() (the catalogue with the server's price ids
// and whether payments are configured; GET /api/plans once per page load) and useCheckout()
// (subscribe to a plan: signed-out visitors go to /auth, the button shows a spinner while the
// session is created, then the browser goes to the checkout url).

import { useCallback, useEffect, useState } from "react";
import { useNavigate } from "react-router-dom";
import { toast } from "sonner";
import { BILLING_TEXT } from "../../api/rules/texts";
import { ApiRequestError } from "../account/api";
import { useSession } from "../account/hooks";
import { sessionStore } from "../account/session-store";
import { createCheckoutUrl, fetchPlans, type PlansAnswer } from "./checkout";
import { checkoutErrorText, PAY_TEXT } from "./messages";
import { withPriceIds, type PricedPlan } from "./plans";

export type PlansStatus = "loading" | "ready" | "unconfigured" | "failed";

let plansRequest: Promise<PlansAnswer> | null = null;
/** Set when a checkout answered 503 although the plan list said payments were configured. */
let refusedAsUnconfigured = false;

export function usePlans(): { plans: PricedPlan[]; status: PlansStatus; markUnconfigured(): void } {
  const [answer, setAnswer] = useState<PlansAnswer | null>(null);
  const [status, setStatus] = useState<PlansStatus>("loading");

  useEffect(() => {
    let live = true;
    (plansRequest ??= fetchPlans()).then(
      (a) => {
        if (!live) return;
        setAnswer(a);
        setStatus(a.configured && !refusedAsUnconfigured ? "ready" : "unconfigured");
      },
      (err) => {
        plansRequest = null; // asked again on the next visit
        console.warn("Plans could not be loaded", err);
        if (live) setStatus("failed");
      },
    );
    return () => {
      live = false;
    };
  }, []);

  const markUnconfigured = useCallback(() => {
    refusedAsUnconfigured = true;
    setStatus("unconfigured");
  }, []);

  return { plans: withPriceIds(answer?.plans ?? null), status, markUnconfigured };
}

export function useCheckout(onUnconfigured: () => void): { pendingKey: string | null; subscribe(plan: PricedPlan): void } {
  const navigate = useNavigate();
  const status = useSession((s) => s.status);
  const token = useSession((s) => s.token);
  const [pendingKey, setPendingKey] = useState<string | null>(null);

  // Coming back from the checkout page with the Back button restores this page from the
  // back/forward cache with its spinner still turning: clear it.
  useEffect(() => {
    const onShow = (e: PageTransitionEvent) => {
      if (e.persisted) setPendingKey(null);
    };
    window.addEventListener("pageshow", onShow);
    return () => window.removeEventListener("pageshow", onShow);
  }, []);

  const toSignIn = useCallback(() => {
    toast.error(PAY_TEXT.subscribeSignInContinue, { id: "subscribe-sign-in" });
    navigate(`/auth?returnUrl=${encodeURIComponent("/subscribe")}`);
  }, [navigate]);

  const subscribe = useCallback(
    async (plan: PricedPlan) => {
      if (pendingKey) return;
      if (status !== "signed_in" || !token) {
        toSignIn();
        return;
      }
      setPendingKey(plan.key);
      try {
        const url = await createCheckoutUrl(plan, token);
        window.location.assign(url); // the spinner keeps turning while the browser leaves
      } catch (err) {
        setPendingKey(null);
        if (err instanceof ApiRequestError && err.status === 401) {
          sessionStore().getState().clear();
          toSignIn();
          return;
        }
        if (err instanceof ApiRequestError && err.status === 503) onUnconfigured();
        const text = checkoutErrorText(err, plan.mode);
        toast.error(text, { id: "checkout-error" });
        // A subscription whose renewal failed is mended by a new payment method, not a second one.
        if (text === BILLING_TEXT.subscriptionPaymentDue) navigate("/update-payment");
      }
    },
    [pendingKey, status, token, toSignIn, onUnconfigured, navigate],
  );

  return { pendingKey, subscribe: (plan) => void subscribe(plan) };
}
