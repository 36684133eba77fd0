// sign_up mode: full name, e-mail, password and confirmation (spec 5: all required, passwords
// match, at least 6 characters). Success signs the visitor in at once (no e-mail verification
// needed to start) and shows 'Account created! ...' for 8 seconds.

import { useState } from "react";
import { toast } from "sonner";
import { signUpErrorText, TEXT, validateSignUp } from "../account/messages";
import { sessionStore } from "../account/session-store";
import { PasswordField, TextField } from "./fields";
import type { AuthFormProps } from "./form-types";

const CREATED_TOAST_MS = 8000;
const SIGN_UP_TOAST_MS = 5000;

export function SignUpForm({ email, setEmail, pending, run, switchTo, onSignedIn }: AuthFormProps & { onSignedIn(): void }) {
  const [fullName, setFullName] = useState("");
  const [password, setPassword] = useState("");
  const [confirmPassword, setConfirmPassword] = useState("");

  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    if (pending) return;
    const fields = { fullName, email, password, confirmPassword };
    const invalid = validateSignUp(fields);
    if (invalid) {
      toast.error(invalid, { duration: SIGN_UP_TOAST_MS });
      return;
    }
    void run(async () => {
      try {
        await sessionStore().getState().signUp(fields);
        toast.success(TEXT.accountCreated, { duration: CREATED_TOAST_MS });
        onSignedIn();
      } catch (err) {
        toast.error(signUpErrorText(err), { duration: SIGN_UP_TOAST_MS });
      }
    });
  };

  return (
    <form className="auth-form" noValidate onSubmit={submit} aria-labelledby="auth-title">
      <h1 id="auth-title">Create Account</h1>
      <p className="help">Free account. {TEXT.signUpNote}</p>
      <TextField label="Full name" autoComplete="name" value={fullName} onChange={setFullName} disabled={pending} />
      <TextField label="Email" type="email" autoComplete="email" value={email} onChange={setEmail} disabled={pending} />
      <PasswordField label="Password" autoComplete="new-password" value={password} onChange={setPassword} disabled={pending} />
      <PasswordField
        label="Confirm password"
        autoComplete="new-password"
        value={confirmPassword}
        onChange={setConfirmPassword}
        disabled={pending}
      />
      <button type="submit" className="button primary" disabled={pending}>
        {pending ? "Creating account..." : "Create Account"}
      </button>
      <p className="auth-links">
        Already have an account?{" "}
        <button type="button" className="link" onClick={() => switchTo("sign_in")} disabled={pending}>
          Sign in
        </button>
      </p>
    </form>
  );
}
