// /support: how to reach a person (reply in about 24 hours on business days), answers to the
// questions people ask most, and quick links to the legal pages (spec/accounts.md sections 2, 9).

import { Link } from "react-router-dom";
import { PLANS, REFUND_TEXT } from "../../api/rules/plans";
import { TEXT } from "../account/messages";
import { SUPPORT_EMAIL, SUPPORT_REPLY_TIME } from "./contact";
import { FACTS } from "./facts";
import { Section, StaticPage } from "./StaticPage";

export function SupportPage() {
  return (
    <StaticPage
      title="Support"
      lead="Something not working, a question about your plan, or an idea for the studio? Here is how to reach us, and answers to the questions we hear most."
    >
      <Section id="contact" title="Contact us">
        <div className="contact-card">
          <p>Email</p>
          <p className="contact-email"><a href={`mailto:${SUPPORT_EMAIL}`}>{SUPPORT_EMAIL}</a></p>
          <p>We reply in {SUPPORT_REPLY_TIME}.</p>
        </div>
        <p>To help us answer in one go, please include:</p>
        <ul>
          <li>the email address of your account (write from it if you can);</li>
          <li>your browser and device, for example "Chrome on Windows" or "Safari on iPhone";</li>
          <li>what you did, what you expected and what happened instead, with the text of any error message;</li>
          <li>for a sound problem, a shared preset link so we can hear the same settings.</li>
        </ul>
      </Section>

      <Section id="faq" title="Common questions">
        <dl className="faq">
          <dt>I pressed Play and hear nothing.</dt>
          <dd>
            Check that at least one channel is switched on with a frequency above 0 Hz, that your device is not
            muted, and that the tab is allowed to play sound. Frequencies below about 20 Hz are inaudible as sine
            waves, and small speakers cannot play very low tones at all; try 200 to 500 Hz to check your setup.
          </dd>

          <dt>Why is the studio dimmed or marked Pro Only?</dt>
          <dd>
            The studio unlocks when you sign in. A free account opens channel {FACTS.freeChannels}; channels 2
            to {FACTS.channels}, waveform choice, the effects, WAV export and sharing come with a paid plan. The
            four demo presets on the studio page play for everyone.
          </dd>

          <dt>Do I need to verify my email before I can start?</dt>
          <dd>
            No. {TEXT.signUpNote} Use the e-mail's link whenever suits you.
          </dd>

          <dt>How does the free demo work?</dt>
          <dd>
            Each free account can start one {FACTS.demoMinutes} demo from the studio. While it runs, channels 1
            to {FACTS.demoChannels} and {FACTS.demoEffects} are unlocked. It cannot be paused or repeated.
          </dd>

          <dt>How do I cancel, change my card or see my invoices?</dt>
          <dd>
            Open the account menu (your initial at the top right) and choose Manage Billing. It opens our payment
            provider's billing portal, where you can cancel, update your payment method and download invoices.
            After cancelling you keep access until the end of the period you paid for. The{" "}
            {PLANS.oneDay.name} is a single payment and needs no cancelling.
          </dd>

          <dt>Can I get a refund?</dt>
          <dd>
            Yes. {REFUND_TEXT} Write to us from your account's email address. The details are in the <Link to="/terms#refunds">Terms of Service</Link>.
          </dd>

          <dt>How long can a session or an export be?</dt>
          <dd>
            From {FACTS.minDuration} to {FACTS.maxDuration}, or to {FACTS.longExport} with the {FACTS.longExportPlan}.
            Exports are WAV (and MP4) files; the WAV at {FACTS.sampleRate}, {FACTS.wavFormat}: an hour of audio is about{" "}
            {FACTS.hourOfWavMB} MB, so make sure there is room on your disk. Each plan counts its exports: {FACTS.exportsText}.
          </dd>

          <dt>The export stopped or failed.</dt>
          <dd>
            Most failures are a full disk or a browser running out of memory on a phone. Free some space, close
            other tabs, and try a shorter duration or a desktop browser.
          </dd>

          <dt>A shared preset link says it has expired or was not found.</dt>
          <dd>
            The link may be incomplete (some apps cut long links) or the preset may have been removed. Ask the
            person who shared it for a fresh link.
          </dd>

          <dt>I forgot my password.</dt>
          <dd>
            Use <Link to="/auth?view=forgot_password">Forgot your password?</Link> on the sign-in screen. We email
            you a link to choose a new one.
          </dd>

          <dt>May I use my exports on YouTube or sell them?</dt>
          <dd>
            It depends on your plan: {PLANS.monthly.name} allows sharing on social media, and selling or
            monetising needs the {PLANS.commercial.name}. See the <Link to="/licensing">Licensing Terms</Link>.
          </dd>

          <dt>Can these sounds treat a health condition?</dt>
          <dd>
            No. Tone Studio is for experimental and entertainment use and makes no medical claims. Our{" "}
            <Link to="/science">science page</Link> explains what the research does and does not show.
          </dd>
        </dl>
      </Section>

      <Section id="links" title="Quick links">
        <ul className="quick-links">
          <li><Link className="button" to="/terms">Terms of Service</Link></li>
          <li><Link className="button" to="/privacy">Privacy Policy</Link></li>
          <li><Link className="button" to="/licensing">Licensing Terms</Link></li>
          <li><Link className="button" to="/how-it-works">How It Works</Link></li>
          <li><Link className="button" to="/subscribe">Plans and Pricing</Link></li>
        </ul>
      </Section>
    </StaticPage>
  );
}
