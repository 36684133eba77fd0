// /reset-password?token=...: two password fields with show/hide toggles, Reset Password and a
// Back to Sign In link (spec 2). Rules and texts of spec 5 and 8: no token gives
// 'Invalid or missing reset token' and /auth; success toasts and goes to /auth after 2 seconds.

import { useEffect, useRef, useState } from "react";
import { Link, useNavigate, useSearchParams } from "react-router-dom";
import { toast } from "sonner";
import { requestJson, type MessageAnswer } from "../account/api";
import { resetErrorText, TEXT, validateResetPassword } from "../account/messages";
import { PasswordField } from "./fields";

export const RESET_REDIRECT_MS = 2000;

export function ResetPasswordPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const token = params.get("token") ?? "";
  const [password, setPassword] = useState("");
  const [confirmPassword, setConfirmPassword] = useState("");
  const [submitting, setSubmitting] = useState(false);
  const [done, setDone] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  useEffect(() => {
    if (token) return;
    toast.error(TEXT.resetTokenMissing, { id: "reset-token-missing" });
    navigate("/auth", { replace: true });
  }, [token, navigate]);

  useEffect(() => () => clearTimeout(timer.current), []);

  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    if (submitting || done) return;
    const invalid = validateResetPassword(password, confirmPassword);
    if (invalid) {
      toast.error(invalid);
      return;
    }
    setSubmitting(true);
    try {
      await requestJson<MessageAnswer>("/api/auth/reset-password", { body: { token, password, confirmPassword } });
      setDone(true);
      toast.success(TEXT.resetSuccess);
      timer.current = setTimeout(() => navigate("/auth", { replace: true }), RESET_REDIRECT_MS);
    } catch (err) {
      toast.error(resetErrorText(err));
    } finally {
      setSubmitting(false);
    }
  };

  if (!token) return null;
  return (
    <main id="main" className="auth-page">
      <form className="auth-form" noValidate onSubmit={submit} aria-labelledby="reset-title">
        <h1 id="reset-title">Reset Your Password</h1>
        <p className="help">Choose a new password of at least 6 characters.</p>
        <PasswordField label="New password" autoComplete="new-password" value={password} onChange={setPassword} disabled={submitting || done} />
        <PasswordField
          label="Confirm new password"
          autoComplete="new-password"
          value={confirmPassword}
          onChange={setConfirmPassword}
          disabled={submitting || done}
        />
        <button type="submit" className="button primary" disabled={!password || !confirmPassword || submitting || done}>
          {submitting ? "Resetting..." : "Reset Password"}
        </button>
        {done && <p role="status">{TEXT.resetSuccess}</p>}
        <p className="auth-links"><Link to="/auth">Back to Sign In</Link></p>
      </form>
    </main>
  );
}
