// "You're Already Pro!" (spec/accounts.md section 2): what admins and subscribers see instead of
// the plan cards, with a Go to App button; admins get the unlimited-access message.

import { Link } from "react-router-dom";

export function AlreadyPro({ isAdmin, headingLevel = 1 }: { isAdmin: boolean; headingLevel?: 1 | 2 }) {
  const Heading = headingLevel === 1 ? "h1" : "h2";
  return (
    <section className="panel already-pro" aria-labelledby="already-pro-title">
      <Heading id="already-pro-title">You're Already Pro!</Heading>
      <p>
        {isAdmin
          ? "As an administrator you have unlimited access to every studio feature."
          : "Your subscription gives you every channel, waveform and effect."}
      </p>
      <Link className="button primary" to="/app">Go to App</Link>
    </section>
  );
}
