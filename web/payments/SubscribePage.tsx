// /subscribe (spec/accounts.md section 2): the plan cards and the free-versus-Pro comparison.
// Signed-out visitors get the spec's toast and go to /auth (coming back here after sign-in);
// admins and subscribers see "You're Already Pro!" with a button to /app.

import { Link } from "react-router-dom";
import { toast } from "sonner";
import { useEntitlements } from "../account/hooks";
import { useSignedInOnly } from "../account/use-signed-in-only";
import { AlreadyPro } from "./AlreadyPro";
import { PAY_TEXT } from "./messages";
import { PlansSection } from "./PlansSection";
import "./payments.css";

const SIGN_IN_PATH = `/auth?returnUrl=${encodeURIComponent("/subscribe")}`;
const notify = () => void toast.error(PAY_TEXT.subscribeSignIn, { id: "subscribe-sign-in" });

export function SubscribePage() {
  const status = useSignedInOnly(SIGN_IN_PATH, notify);
  const ent = useEntitlements();

  if (status !== "signed_in") return <main id="main" className="studio" aria-busy="true" />;

  if (ent.isAdmin || ent.hasActiveSubscription) {
    return (
      <main id="main" className="studio">
        <AlreadyPro isAdmin={ent.isAdmin} />
      </main>
    );
  }

  return (
    <main id="main" className="studio plans-page">
      <header className="plans-head">
        <h1 id="plans-title">Plans and Pricing</h1>
        <p>Unlock all four channels, every waveform and effect, WAV export and preset sharing.</p>
      </header>
      <PlansSection />
      <p><Link className="button" to="/">Back to the studio</Link></p>
    </main>
  );
}
