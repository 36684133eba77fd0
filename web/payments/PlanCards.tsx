// The plan cards (spec/accounts.md sections 2 and 3): name, price and period, tagline, audience,
// core features, limits, restrictions, the call to action with its subtext, and the Most Popular
// and For Business flags. One component for /subscribe, the studio's pricing screen and
// /reactivate, so a plan shows the same price everywhere. The button of the plan whose checkout
// is being created shows a spinner, and every button waits while it is.

import type { PlansStatus } from "./use-checkout";
import { periodLabel, type PricedPlan } from "./plans";

export interface PlanCardsProps {
  plans: readonly PricedPlan[];
  status: PlansStatus;
  pendingKey: string | null;
  onSubscribe(plan: PricedPlan): void;
}

function List({ items, className, label }: { items: readonly string[]; className: string; label: string }) {
  if (items.length === 0) return null;
  return (
    <ul className={`plan-list ${className}`} aria-label={label}>
      {items.map((item) => (
        <li key={item}>{item}</li>
      ))}
    </ul>
  );
}

export function PlanCards({ plans, status, pendingKey, onSubscribe }: PlanCardsProps) {
  return (
    <div className="plan-cards">
      {plans.map((plan) => {
        const titleId = `plan-${plan.key}-title`;
        const pending = pendingKey === plan.key;
        const disabled = pendingKey !== null || status !== "ready" || !plan.priceId;
        return (
          <article
            key={plan.key}
            className="plan-card"
            data-plan={plan.key}
            data-popular={plan.popular}
            data-enterprise={plan.enterprise}
            aria-labelledby={titleId}
          >
            {plan.popular && <p className="plan-flag">Most Popular</p>}
            {plan.enterprise && <p className="plan-flag enterprise">For Business</p>}
            <h3 id={titleId}>{plan.name}</h3>
            <p className="plan-price">
              <span className="plan-amount">{plan.priceLabel}</span> <span className="plan-period">{periodLabel(plan.period)}</span>
            </p>
            <p className="plan-tagline">{plan.tagline}</p>
            <p className="plan-audience">{plan.audience}</p>
            <List items={plan.coreFeatures} className="features" label={`${plan.name} features`} />
            <List items={plan.limits} className="limits" label={`${plan.name} limits`} />
            <List items={plan.restrictions} className="restrictions" label={`${plan.name} restrictions`} />
            <div className="plan-cta">
              <button
                type="button"
                className="button primary"
                disabled={disabled}
                aria-busy={pending}
                aria-describedby={titleId}
                onClick={() => onSubscribe(plan)}
              >
                {pending && <span className="spinner" aria-hidden="true" />}
                {pending ? " Starting checkout..." : plan.cta}
              </button>
              <p className="plan-cta-sub">{plan.ctaSubtext}</p>
            </div>
          </article>
        );
      })}
    </div>
  );
}
