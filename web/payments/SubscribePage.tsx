// /subscribe (spec 2): for now a placeholder for the plans page, which arrives with payments.
// Signed-out visitors get the spec's toast and go to /auth; admins and subscribers see
// "You're Already Pro!" with a button to /app; everyone else the free-versus-Pro comparison.

import { useEffect } from "react";
import { Link, useNavigate } from "react-router-dom";
import { toast } from "sonner";
import { useEntitlements, useSession } from "./hooks";
import { TEXT } from "./messages";

const COMPARISON: [string, string, string][] = [
  ["Frequency channels", "1", "4"],
  ["Waveforms", "Sine", "Sine, square, sawtooth, triangle"],
  ["Effects", "-", "All effects, layered"],
  ["WAV export and preset sharing", "-", "Yes"],
  ["Playback duration", "59 minutes", "59 minutes"],
];

export function SubscribePage() {
  const navigate = useNavigate();
  const status = useSession((s) => s.status);
  const ent = useEntitlements();

  useEffect(() => {
    if (status !== "anonymous") return;
    toast.error(TEXT.subscribeSignIn, { id: "subscribe-sign-in" });
    navigate(`/auth?returnUrl=${encodeURIComponent("/subscribe")}`, { replace: true });
  }, [status, navigate]);

  if (status !== "signed_in") return <main id="main" className="studio" aria-busy="true" />;

  if (ent.isAdmin || ent.hasActiveSubscription) {
    return (
      <main id="main" className="studio">
        <section className="panel">
          <h1>You're Already Pro!</h1>
          <p>
            {ent.isAdmin
              ? "Administrators have unlimited access to every studio feature."
              : "Your subscription gives you every channel, waveform and effect."}
          </p>
          <Link className="button primary" to="/app">Go to App</Link>
        </section>
      </main>
    );
  }

  return (
    <main id="main" className="studio">
      <section className="panel" aria-labelledby="plans-title">
        <h1 id="plans-title">Plans and Pricing</h1>
        <p>Pro plans and checkout are coming soon. Here is what Pro will add to your free account:</p>
        <table className="compare">
          <caption className="sr-only">Free versus Pro</caption>
          <thead>
            <tr><th scope="col">Feature</th><th scope="col">Free</th><th scope="col">Pro</th></tr>
          </thead>
          <tbody>
            {COMPARISON.map(([feature, free, pro]) => (
              <tr key={feature}><th scope="row">{feature}</th><td>{free}</td><td>{pro}</td></tr>
            ))}
          </tbody>
        </table>
        <p><Link className="button" to="/">Back to the studio</Link></p>
      </section>
    </main>
  );
}
