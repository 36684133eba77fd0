// forgot_password mode: asks for the e-mail (spec 5: required) and sends the reset link
// (POST /api/auth/forgot-password); success leads to check_email, errors as spec 8.

import { toast } from "sonner";
import { requestJson, type MessageAnswer } from "../account/api";
import { forgotErrorText, validateForgot } from "../account/messages";
import { TextField } from "./fields";
import type { AuthFormProps } from "./form-types";

export function ForgotPasswordForm({ email, setEmail, pending, run, switchTo, onSent }: AuthFormProps & { onSent(message: string | null): void }) {
  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    if (pending) return;
    const invalid = validateForgot(email);
    if (invalid) {
      toast.error(invalid);
      return;
    }
    void run(async () => {
      try {
        const answer = await requestJson<MessageAnswer>("/api/auth/forgot-password", { body: { email: email.trim() } });
        onSent(answer.message ?? null);
      } catch (err) {
        toast.error(forgotErrorText(err));
      }
    });
  };

  return (
    <form className="auth-form" noValidate onSubmit={submit} aria-labelledby="auth-title">
      <h1 id="auth-title">Reset Password</h1>
      <p className="help">Enter the email address of your account and we will send you a link to choose a new password.</p>
      <TextField label="Email" type="email" autoComplete="email" value={email} onChange={setEmail} disabled={pending} />
      <button type="submit" className="button primary" disabled={pending}>
        {pending ? "Sending..." : "Send Reset Link"}
      </button>
      <p className="auth-links">
        <button type="button" className="link" onClick={() => switchTo("sign_in")} disabled={pending}>
          Back to Sign In
        </button>
      </p>
    </form>
  );
}
