// /terms: Terms of Service, version 2.0, effective August 1, 2025, with the facts of
// spec/accounts.md section 9 (renewal, price-change notice, payment retries, refunds, liability
// cap, data export, governing law); prices and limits from api/rules/plans.ts.

import { Link } from "react-router-dom";
import { PLAN_LIST, REFUND_TEXT } from "../../api/rules/plans";
import { periodLabel } from "../payments/plans";
import { SUPPORT_EMAIL } from "./contact";
import { FACTS } from "./facts";
import { Contents, Section, StaticPage } from "./StaticPage";

export const TERMS_VERSION = "2.0";
export const TERMS_DATE = "August 1, 2025";

const S = {
  agreement: "Agreement",
  service: "The service",
  accounts: "Accounts",
  plans: "Plans and payment",
  renewal: "Renewal and cancellation",
  prices: "Price changes",
  failed: "Failed payments",
  refunds: "Refunds",
  content: "Your sounds and presets",
  use: "Acceptable use",
  availability: "Availability and changes",
  termination: "Termination and data export",
  disclaimer: "Disclaimer",
  liability: "Limitation of liability",
  law: "Governing law and disputes",
  changes: "Changes to these terms",
  contact: "Contact",
} as const;

export function TermsPage() {
  return (
    <StaticPage
      title="Terms of Service"
      meta={<>Version {TERMS_VERSION}, effective {TERMS_DATE}</>}
      lead="These terms govern your use of Tone Studio: the website, the studio and the accounts and plans offered on it. Please read them; they are written to be understood."
    >
      <Contents sections={S} />

      <Section id="agreement" title={S.agreement}>
        <p>
          By creating an account or using Tone Studio you agree to these terms and to the{" "}
          <Link to="/privacy">Privacy Policy</Link>. What you may do with the sounds you export is set out in
          the <Link to="/licensing">Licensing Terms</Link>, which form part of these terms. If you do not
          agree, please do not use the service.
        </p>
      </Section>

      <Section id="service" title={S.service}>
        <p>
          Tone Studio is a browser tool for generating tones and sound textures for meditation, focus,
          sleep, sound exploration and content creation. The sound is computed on your device; exports are
          rendered in your browser.
        </p>
        <p>
          The service is provided for experimental and entertainment use. It makes no medical claims and is
          not a medical device: it does not diagnose, treat, cure or prevent any condition and is no
          substitute for professional advice. Listen at a moderate volume, and do not use the studio while
          driving or operating machinery if a sound could distract or drowse you.
        </p>
      </Section>

      <Section id="accounts" title={S.accounts}>
        <p>
          You must be at least 13 years old to create an account. Give an email address you can receive
          mail at, keep your password (at least {FACTS.passwordMin} characters) to yourself, and tell us
          promptly at <a href={`mailto:${SUPPORT_EMAIL}`}>{SUPPORT_EMAIL}</a> if you think someone else has
          used your account. You are responsible for what happens under your account. One account is for
          one person; team use requires the Commercial License.
        </p>
      </Section>

      <Section id="plans" title={S.plans}>
        <p>Paid access is offered as the following plans, charged in US dollars:</p>
        <ul>
          {PLAN_LIST.map((plan) => (
            <li key={plan.key}>
              <strong>{plan.name}</strong>: {plan.priceLabel} {periodLabel(plan.period)}
              {plan.mode === "payment" ? ", a single payment that does not renew" : ", a subscription"}.{" "}
              {[...plan.limits, ...plan.restrictions].join("; ")}.
            </li>
          ))}
        </ul>
        <p>
          The One Day Pass gives full access for 24 hours from payment and then ends by itself.
          Payments are processed by our payment provider, Stripe; we never see or store your full card
          number. Prices shown at checkout, including any taxes, are the prices you pay.
        </p>
      </Section>

      <Section id="renewal" title={S.renewal}>
        <p>
          Subscriptions renew automatically at the end of each billing period (monthly for the plans
          offered today; where a longer cycle such as six months is offered, the same rules apply to it)
          unless you cancel at least 24 hours before the current period ends. You can cancel at any time
          from Manage Billing in the account menu. After cancelling you keep access until the end of the
          period you have paid for; nothing further is charged.
        </p>
      </Section>

      <Section id="prices" title={S.prices}>
        <p>
          We will tell you by email at least 30 days before a price change applies to your subscription.
          The new price takes effect from your first renewal after the notice period; if you do not want
          to continue, cancel before that renewal.
        </p>
      </Section>

      <Section id="failed" title={S.failed}>
        <p>
          If a renewal payment fails, we retry it for up to 7 days. During that time your paid features are
          paused, and you can update your payment method from the billing page. When a retry succeeds,
          access resumes for the new period; if every retry fails, the subscription ends.
        </p>
      </Section>

      <Section id="refunds" title={S.refunds}>
        <p>
          {REFUND_TEXT} To ask for one, write to{" "}
          <a href={`mailto:${SUPPORT_EMAIL}`}>{SUPPORT_EMAIL}</a> from the email address of your account. A
          refunded period ends your paid access for that period. Nothing in these terms limits refund rights
          that the consumer law of your country gives you.
        </p>
      </Section>

      <Section id="content" title={S.content}>
        <p>
          The settings you create and the audio you export are yours to use within the rights of your plan,
          described in the <Link to="/licensing">Licensing Terms</Link>. When you share a preset, its name
          and settings are stored so that anyone with the link can open it. Tone Studio itself, its engine,
          design and text remain ours.
        </p>
      </Section>

      <Section id="use" title={S.use}>
        <p>Please do not:</p>
        <ul>
          <li>share your account, resell access to the studio, or get around plan limits or locks;</li>
          <li>overload, probe or attack the service, or use automated tools to create accounts;</li>
          <li>use the service or its output to break the law or to harm others, including by playing sound at harmful levels to people who have not agreed to it;</li>
          <li>present sounds made with the studio as a medical treatment.</li>
        </ul>
      </Section>

      <Section id="availability" title={S.availability}>
        <p>
          We work to keep the service available and its sound exact, but we cannot promise it will be free of
          interruptions or errors, and features may change. If we remove a paid feature you rely on, tell
          us: we will work out a fair solution, including a pro-rated refund where appropriate.
        </p>
      </Section>

      <Section id="termination" title={S.termination}>
        <p>
          You can stop using the service and ask us to delete your account at any time. We may suspend or
          close an account that seriously or repeatedly breaks these terms, and will tell you why unless the
          law prevents it. After an account ends for any reason you may ask for an export of your data
          (account details, plan history and shared presets) within 30 days; we then delete it as described in the{" "}
          <Link to="/privacy">Privacy Policy</Link>.
        </p>
      </Section>

      <Section id="disclaimer" title={S.disclaimer}>
        <p>
          Apart from what these terms expressly promise, the service is provided "as is" and "as available",
          without warranties of any kind, including fitness for a particular purpose. In particular we make
          no promise about any effect of listening to any sound on your health, mood, sleep or performance.
        </p>
      </Section>

      <Section id="liability" title={S.liability}>
        <p>
          To the extent the law allows, our total liability for all claims relating to the service is limited
          to the fees you paid us in the 12 months before the event that gave rise to the claim, and we are
          not liable for indirect or consequential losses such as lost profits or lost data. Nothing here
          limits liability that cannot be limited by law.
        </p>
      </Section>

      <Section id="law" title={S.law}>
        <p>
          These terms are governed by the laws of the State of Delaware, USA, without regard to its
          conflict-of-law rules. Before starting any formal proceedings, please write to us so we can try to
          resolve the matter. Disputes that cannot be resolved that way will be settled by binding individual
          arbitration, except that either side may bring a claim in small-claims court, and except where the
          law of your country gives you the right to go to your local courts.
        </p>
      </Section>

      <Section id="changes" title={S.changes}>
        <p>
          If we change these terms in a way that matters, we will give notice by email or in the app before
          the change takes effect, and show the new version number and date at the top of this page.
          Continuing to use the service after that means you accept the new terms.
        </p>
      </Section>

      <Section id="contact" title={S.contact}>
        <p>
          Questions about these terms: <a href={`mailto:${SUPPORT_EMAIL}`}>{SUPPORT_EMAIL}</a>, or see the{" "}
          <Link to="/support">Support</Link> page.
        </p>
      </Section>
    </StaticPage>
  );
}
