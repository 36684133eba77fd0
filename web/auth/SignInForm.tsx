// sign_in mode: e-mail and password (spec 5: both required, e-mail trimmed), errors mapped to the
// auth screen's texts (spec 8), links to sign_up and forgot_password.

import { useState } from "react";
import { toast } from "sonner";
import { signInErrorText, validateSignIn } from "../account/messages";
import { sessionStore } from "../account/session-store";
import { PasswordField, TextField } from "./fields";
import type { AuthFormProps } from "./form-types";

export function SignInForm({ email, setEmail, pending, run, switchTo, onSignedIn }: AuthFormProps & { onSignedIn(): void }) {
  const [password, setPassword] = useState("");

  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    if (pending) return;
    const invalid = validateSignIn(email, password);
    if (invalid) {
      toast.error(invalid);
      return;
    }
    void run(async () => {
      try {
        await sessionStore().getState().signIn(email, password);
        onSignedIn();
      } catch (err) {
        toast.error(signInErrorText(err));
      }
    });
  };

  return (
    <form className="auth-form" noValidate onSubmit={submit} aria-labelledby="auth-title">
      <h1 id="auth-title">Sign In</h1>
      <TextField label="Email" type="email" autoComplete="email" value={email} onChange={setEmail} disabled={pending} />
      <PasswordField label="Password" value={password} onChange={setPassword} disabled={pending} />
      <button type="submit" className="button primary" disabled={pending}>
        {pending ? "Signing in..." : "Sign In"}
      </button>
      <p className="auth-links">
        <button type="button" className="link" onClick={() => switchTo("forgot_password")} disabled={pending}>
          Forgot your password?
        </button>
      </p>
      <p className="auth-links">
        Don't have an account?{" "}
        <button type="button" className="link" onClick={() => switchTo("sign_up")} disabled={pending}>
          Create a free account
        </button>
      </p>
    </form>
  );
}
