// /privacy: Privacy Policy, version 3.0, effective August 1, 2025, with the figures of
// spec/accounts.md section 9 (response time, breach notice, retention periods, minimum age) and a
// description of what this application actually stores (api/db/schema.ts, web/account/storage.ts).

import { Link } from "react-router-dom";
import { TOKEN_KEYS, USER_KEY } from "../account/storage";
import { SUPPORT_EMAIL } from "./contact";
import { Contents, Section, StaticPage } from "./StaticPage";

export const PRIVACY_VERSION = "3.0";
export const PRIVACY_DATE = "August 1, 2025";

/** How long each kind of record is kept (spec/accounts.md section 9). */
const RETENTION = [
  { what: "Account data (email, name, password hash, sessions, shared presets) after you delete your account", how: "90 days, then permanently removed from our systems and backups within a further 30 days" },
  { what: "Payment and subscription records", how: "7 years, as tax and accounting law requires" },
  { what: "Support conversations", how: "3 years" },
  { what: "Technical logs and usage statistics", how: "At most 2 years" },
  { what: "Temporary audio made on our server (for example while rendering a video)", how: "Deleted within 24 hours" },
] as const;

const S = {
  summary: "In short",
  collect: "What we collect",
  browser: "What stays in your browser",
  use: "How we use it",
  share: "Who we share it with",
  retention: "How long we keep it",
  rights: "Your rights",
  security: "Security and breaches",
  children: "Children",
  transfers: "International transfers",
  changes: "Changes to this policy",
  contact: "Contact",
} as const;

export function PrivacyPage() {
  return (
    <StaticPage
      title="Privacy Policy"
      meta={<>Version {PRIVACY_VERSION}, effective {PRIVACY_DATE}</>}
      lead="This policy explains what personal data Tone Studio collects, why, how long we keep it and what you can ask of us."
    >
      <Contents sections={S} />

      <Section id="summary" title={S.summary}>
        <ul>
          <li>The sound you make is computed in your browser. We do not record or upload what you play.</li>
          <li>We keep what an account needs: your email address, your name, a scrambled form of your password and your plan.</li>
          <li>Card details go to our payment provider, Stripe, and never reach our servers.</li>
          <li>No advertising, no third-party trackers, and we do not sell personal data.</li>
        </ul>
      </Section>

      <Section id="collect" title={S.collect}>
        <h3>When you create an account</h3>
        <p>
          Your email address, the name you give, and your password stored only as an Argon2id
          hash, a one-way scramble from which the password cannot be read back. We also record when the
          account was created and whether the email address has been verified.
        </p>
        <h3>While you are signed in</h3>
        <p>
          A session record (when it started and when it expires) so you stay signed in and can be signed
          out everywhere. Links we email you for verification or password resets are stored only as hashes
          and expire.
        </p>
        <h3>When you pay</h3>
        <p>
          Your plan, its status and renewal date, and the identifiers Stripe gives us for your customer
          record, subscription and checkout. Stripe handles the card itself under its own privacy policy.
        </p>
        <h3>When you use features</h3>
        <p>
          Whether and when you used the free demo; the name and settings of presets you choose to share
          (anyone with the link can open a shared preset); and, for administrators, the temporary access they
          grant. If you write to support, we keep the conversation.
        </p>
        <h3>Technical data</h3>
        <p>
          Like any website, our server sees your IP address and browser details with each request. We use
          the address briefly, in memory, to limit repeated sign-in and sign-up attempts, and may keep
          short technical logs to keep the service secure and working.
        </p>
      </Section>

      <Section id="browser" title={S.browser}>
        <p>
          We do not use cookies. Your browser's local storage holds your session token (under{" "}
          {TOKEN_KEYS.map((key, i) => (
            <span key={key}>{i > 0 && (i === TOKEN_KEYS.length - 1 ? " and " : ", ")}<code>{key}</code></span>
          ))}) and a copy of your public account details (<code>{USER_KEY}</code>), and a few preferences
          such as whether you have seen the tutorial. Signing out removes the session data; clearing your
          browser's site data removes all of it.
        </p>
      </Section>

      <Section id="use" title={S.use}>
        <p>We use personal data only to:</p>
        <ul>
          <li>provide the studio and your account, and apply the plan you have paid for;</li>
          <li>send the emails the service needs (verification, password resets, receipts and notices of changes to prices or terms);</li>
          <li>answer your support requests;</li>
          <li>keep the service secure, prevent abuse and fix problems;</li>
          <li>meet legal obligations such as tax records.</li>
        </ul>
        <p>We do not send marketing email without your consent, and we do not profile you or sell your data.</p>
      </Section>

      <Section id="share" title={S.share}>
        <p>
          We share data only with the services that run Tone Studio for us, each bound to use it for that
          purpose alone: Stripe for payments, our email delivery provider, and our hosting provider. We
          disclose data to authorities only when the law requires it.
        </p>
      </Section>

      <Section id="retention" title={S.retention}>
        <table className="fact-table">
          <caption>Retention periods</caption>
          <thead>
            <tr><th scope="col">Record</th><th scope="col">Kept for</th></tr>
          </thead>
          <tbody>
            {RETENTION.map((row) => (
              <tr key={row.what}><td>{row.what}</td><td>{row.how}</td></tr>
            ))}
          </tbody>
        </table>
        <p>
          The 90 days after deletion let us restore an account deleted by mistake and settle open payment
          questions; during that time the account cannot be used. If you ask us to erase your data right
          away, we do so within 30 days, except for the records the law requires us to keep.
        </p>
      </Section>

      <Section id="rights" title={S.rights}>
        <p>
          You can ask us for a copy of your data, to correct it, to delete it, to restrict or object to its
          use, or to receive it in a portable format. Write to{" "}
          <a href={`mailto:${SUPPORT_EMAIL}`}>{SUPPORT_EMAIL}</a> from your account's email address. We answer
          within 30 days. You can also complain to your local data protection authority.
        </p>
      </Section>

      <Section id="security" title={S.security}>
        <p>
          Connections are encrypted, passwords are hashed with Argon2id, one-time links are stored only as
          hashes, and sessions can be revoked. If a breach ever puts your personal data at risk, we will
          notify the relevant authority and, where required, you within 72 hours of becoming aware of it.
        </p>
      </Section>

      <Section id="children" title={S.children}>
        <p>
          Tone Studio is not intended for children under 13, and they may not create an account. If you
          believe a child under 13 has given us personal data, tell us and we will delete it.
        </p>
      </Section>

      <Section id="transfers" title={S.transfers}>
        <p>
          Our providers may process data in other countries, including the United States. Where the law
          requires it, such transfers are covered by appropriate safeguards such as standard contractual
          clauses.
        </p>
      </Section>

      <Section id="changes" title={S.changes}>
        <p>
          When we change this policy in a way that matters, we will tell you by email or in the app before
          the change applies, and update the version and date above.
        </p>
      </Section>

      <Section id="contact" title={S.contact}>
        <p>
          Privacy questions and requests: <a href={`mailto:${SUPPORT_EMAIL}`}>{SUPPORT_EMAIL}</a>. See also the{" "}
          <Link to="/terms">Terms of Service</Link> and the <Link to="/support">Support</Link> page.
        </p>
      </Section>
    </StaticPage>
  );
}
