// The plans block shared by /subscribe, the studio's pricing screen and /reactivate: a note when
// payments are not configured (the buttons are then disabled), the plan cards wired to checkout,
// and the free-versus-Pro comparison. Admins and subscribers see "You're Already Pro!" instead.

import { REFUND_TEXT } from "../../api/rules/plans";
import { useEntitlements } from "../account/hooks";
import { AlreadyPro } from "./AlreadyPro";
import { PAY_TEXT } from "./messages";
import { PlanCards } from "./PlanCards";
import { PlanComparison } from "./PlanComparison";
import { useCheckout, usePlans } from "./use-checkout";

export function PlansSection({ comparison = true }: { comparison?: boolean }) {
  const ent = useEntitlements();
  const { plans, status, markUnconfigured } = usePlans();
  const { pendingKey, subscribe } = useCheckout(markUnconfigured);

  if (ent.isAdmin || ent.hasActiveSubscription) return <AlreadyPro isAdmin={ent.isAdmin} headingLevel={2} />;

  return (
    <div className="plans-section">
      {status === "unconfigured" && (
        <p className="notice" role="status">
          {PAY_TEXT.paymentsNotConfigured}. Plans are shown for reference; checkout is unavailable on this server.
        </p>
      )}
      {status === "failed" && (
        <p className="notice" role="status">{PAY_TEXT.checkoutNetwork}</p>
      )}
      <PlanCards plans={plans} status={status} pendingKey={pendingKey} onSubscribe={subscribe} />
      <p className="plan-terms">
        Cancel anytime. {REFUND_TEXT} For experimental and entertainment use only; no medical claims.
      </p>
      {comparison && <PlanComparison />}
    </div>
  );
}
