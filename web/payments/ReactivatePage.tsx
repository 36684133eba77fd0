// /reactivate (spec/accounts.md section 2): signed-in only. Lists the Pro features a returning
// subscriber gets back and embeds the reactivation widget: the same plan cards as /subscribe.

import { Link } from "react-router-dom";
import { toast } from "sonner";
import { EFFECTS } from "../../dsp/host/model/catalogue";
import { useSignedInOnly } from "../account/use-signed-in-only";
import { PAY_TEXT } from "./messages";
import { PlansSection } from "./PlansSection";
import "./payments.css";

const REGAINED = [
  "All four frequency channels from 0 to 20000 Hz",
  "Every waveform: sine, square, sawtooth and triangle",
  `All ${EFFECTS.length} effects, layered`,
  "WAV export and preset sharing",
  "The billing portal for invoices and payment methods",
];

const SIGN_IN_PATH = `/auth?returnUrl=${encodeURIComponent("/reactivate")}`;
const notify = () => void toast.info(PAY_TEXT.signInToReactivate, { id: "reactivate-sign-in" });

export function ReactivatePage() {
  const status = useSignedInOnly(SIGN_IN_PATH, notify);

  if (status !== "signed_in") return <main id="main" className="studio" aria-busy="true" />;

  return (
    <main id="main" className="studio plans-page">
      <header className="plans-head">
        <h1>Welcome Back: Reactivate Pro</h1>
        <p>Reactivate a plan and get back everything Pro gives you:</p>
        <ul className="reactivate-list">
          {REGAINED.map((f) => (
            <li key={f}>{f}</li>
          ))}
        </ul>
      </header>
      <PlansSection comparison={false} />
      <p><Link className="button" to="/app">Back to App</Link></p>
    </main>
  );
}
