// Buy Now (spec/accounts.md sections 6-8): anonymous visitors are asked to log in; otherwise
// POST /api/marketplace/purchase/{id} and then: an owner hears 'You already own this sound!', a
// paid sound sends the browser to its checkout page, a free one is recorded at once (a success
// toast, My sounds reloads). usePurchaseReturn() handles the way back from a paid checkout
// (/marketplace?purchase=success&session_id=...): the server fulfils the session (idempotently,
// the webhook may have done it already), then My sounds reloads.

import { useCallback, useEffect, useRef, useState } from "react";
import { useNavigate, useSearchParams } from "react-router-dom";
import { toast } from "sonner";
import { MARKETPLACE_TEXT as T } from "../../api/rules/marketplace";
import { useSession } from "../account/hooks";
import { verifyCheckoutSession } from "../payments/checkout";
import { requestMarketplaceRefresh } from "./events";
import { purchaseSound, type MarketplaceSound } from "./marketplace-api";
import { purchaseErrorText, purchaseReturnSession, purchaseStep } from "./purchase";

const SIGN_IN_PATH = `/auth?returnUrl=${encodeURIComponent("/marketplace")}`;

export function usePurchase(): { pendingId: string | null; buy(sound: MarketplaceSound): void } {
  const navigate = useNavigate();
  const status = useSession((s) => s.status);
  const token = useSession((s) => s.token);
  const [pendingId, setPendingId] = useState<string | null>(null);

  // Back from the checkout page via the Back button: the page returns from the back/forward
  // cache with its button still busy.
  useEffect(() => {
    const onShow = (e: PageTransitionEvent) => {
      if (e.persisted) setPendingId(null);
    };
    window.addEventListener("pageshow", onShow);
    return () => window.removeEventListener("pageshow", onShow);
  }, []);

  const buy = useCallback(
    async (sound: MarketplaceSound) => {
      if (pendingId) return;
      if (status !== "signed_in" || !token) {
        toast.error(T.loginToPurchase, {
          id: "login-to-purchase",
          action: { label: "Sign in", onClick: () => navigate(SIGN_IN_PATH) },
        });
        return;
      }
      setPendingId(sound.id);
      try {
        const step = purchaseStep(await purchaseSound(sound.id, token));
        if (step.kind === "checkout") {
          window.location.assign(step.url); // stays busy while the browser leaves
          return;
        }
        setPendingId(null);
        if (step.kind === "owned") toast.info(T.alreadyOwned, { id: "already-owned" });
        else if (step.kind === "granted") {
          toast.success(T.purchaseRecorded, { id: "purchase-recorded" });
          requestMarketplaceRefresh();
        } else toast.error(step.text, { id: "purchase-failed" });
      } catch (err) {
        setPendingId(null);
        console.warn("Purchase failed", err);
        toast.error(purchaseErrorText(err), { id: "purchase-failed" });
      }
    },
    [pendingId, status, token, navigate],
  );

  return { pendingId, buy: (sound) => void buy(sound) };
}

/** On /marketplace?purchase=success&session_id=cs_...: confirms the purchase once the session
 *  is restored, then clears the query. */
export function usePurchaseReturn(): void {
  const [params, setParams] = useSearchParams();
  const sessionId = purchaseReturnSession(params);
  const status = useSession((s) => s.status);
  const token = useSession((s) => s.token);
  const handled = useRef<string | null>(null);

  useEffect(() => {
    if (!sessionId || status === "restoring" || handled.current === sessionId) return;
    handled.current = sessionId;
    const done = () => setParams({}, { replace: true });
    if (status !== "signed_in" || !token) {
      // The payment went through Stripe; the webhook records it. Signing in shows it.
      toast.info(T.loginToDownload, { id: "purchase-return" });
      done();
      return;
    }
    verifyCheckoutSession(sessionId, token).then(
      (answer) => {
        if (answer.verified) toast.success(T.purchaseRecorded, { id: "purchase-return" });
        else if (answer.refunded) toast.info(T.duplicateRefunded, { id: "purchase-return" });
        else toast.info(T.purchaseUnconfirmed, { id: "purchase-return" });
        requestMarketplaceRefresh();
        done();
      },
      (err: unknown) => {
        console.warn("Purchase verification failed", err);
        toast.info(T.purchaseUnconfirmed, { id: "purchase-return" });
        requestMarketplaceRefresh();
        done();
      },
    );
  }, [sessionId, status, token, setParams]);
}
