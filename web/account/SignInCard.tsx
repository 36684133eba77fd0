// The card anonymous visitors see above the dimmed studio (spec/studio.md sections 1 and 2): a
// sign-in form of its own (e-mail and password, through the same session store as /auth), the
// studio login's error texts (spec/accounts.md section 8, "Sign-in (studio login)"), and a link to
// sign up (the call to action itself, with its note on instant access, is the hero's,
// web/studio/Hero.tsx, right above this card). A successful
// sign-in unlocks the studio in place: the card goes away once the session is signed in.

import { useState } from "react";
import { Link } from "react-router-dom";
import { toast } from "sonner";
import { PasswordField, TextField } from "../auth/fields";
import { studioSignInErrorText, TEXT, validateSignIn } from "./messages";
import { sessionStore } from "./session-store";

/** The card's explanation, which also describes the locked studio below it. */
export const SIGN_IN_NOTE_ID = "studio-signin-note";

/** The forgot-password screen, with the e-mail typed so far prefilled (spec 2: ?email=). */
function forgotPath(email: string): string {
  const q = new URLSearchParams({ view: "forgot_password" });
  if (email.trim()) q.set("email", email.trim());
  return `/auth?${q}`;
}

export function SignInCard() {
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    if (pending) return;
    const invalid = validateSignIn(email, password);
    setError(invalid);
    if (invalid) return;
    setPending(true);
    try {
      await sessionStore().getState().signIn(email, password);
      toast.success(TEXT.welcome, { id: "studio-sign-in" });
    } catch (err) {
      setError(studioSignInErrorText(err));
      setPending(false);
    }
  };

  return (
    <section className="panel signin-card" aria-labelledby="signin-card-title">
      <div className="signin-intro">
        <h2 id="signin-card-title">Sign in to start creating</h2>
        <p id={SIGN_IN_NOTE_ID}>The studio unlocks when you sign in.</p>
        <p className="card-actions">
          <Link className="button" to="/auth?view=sign_up">New here? Create an account</Link>
        </p>
      </div>
      <form className="signin-form" noValidate onSubmit={submit} aria-labelledby="signin-card-title">
        <TextField label="Email" type="email" autoComplete="email" value={email} onChange={setEmail} disabled={pending} />
        <PasswordField label="Password" value={password} onChange={setPassword} disabled={pending} />
        <p className="form-error" role="alert">{error}</p>
        <button type="submit" className="button primary" disabled={pending}>
          {pending ? "Signing in..." : "Sign In"}
        </button>
        <Link className="signin-forgot" to={forgotPath(email)}>Forgot your password?</Link>
      </form>
    </section>
  );
}
