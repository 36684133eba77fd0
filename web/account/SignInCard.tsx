// The card anonymous visitors see above the dimmed studio (spec/studio.md section 2): sign in, or
// the call to action to create a free account ('no email verification, instant access').

import { Link } from "react-router-dom";
import { PRODUCT_NAME } from "./messages";

export const SIGN_IN_CARD_ID = "studio-signin-card";

export function SignInCard() {
  return (
    <section id={SIGN_IN_CARD_ID} className="panel signin-card" aria-labelledby="signin-card-title">
      <h2 id="signin-card-title">Sign in to start creating</h2>
      <p>
        The {PRODUCT_NAME} studio unlocks when you sign in. New here? Create a free account: no email
        verification, instant access.
      </p>
      <div className="card-actions">
        <Link className="button primary" to="/auth?view=sign_up">Create Free Account</Link>
        <Link className="button" to="/auth">Sign In</Link>
      </div>
    </section>
  );
}
