// /auth/callback: the return from an e-mailed link (spec 2 and 4). Starts after 100 ms. An error
// param toasts and goes to /auth; without a code an existing session is welcomed (none goes to
// /auth); a code is exchanged for a session (POST /api/auth/exchange); #type=recovery goes on to
// /auth?view=update_password, keeping the answer's one-time reset token for that form
// (recovery-token.ts); an unconfirmed e-mail is signed out; otherwise welcome, then the
// redirect param or /app. Progress messages and a Return to Sign In button throughout.

import { useEffect, useState } from "react";
import { Link, useLocation, useNavigate } from "react-router-dom";
import { toast } from "sonner";
import { safeReturnPath } from "../account/auth-entry";
import { exchangeErrorText, TEXT } from "../account/messages";
import { sessionStore } from "../account/session-store";
import { holdResetToken } from "./recovery-token";

export const CALLBACK_START_MS = 100;

export function AuthCallbackPage() {
  const location = useLocation();
  const navigate = useNavigate();
  const [progress, setProgress] = useState("Completing sign-in...");
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    const q = new URLSearchParams(location.search);
    const hash = new URLSearchParams(location.hash.replace(/^#/, ""));
    const recovery = hash.get("type") === "recovery";
    const target = safeReturnPath(q.get("redirect")) ?? "/app";
    let cancelled = false;

    const go = async () => {
      const error = q.get("error");
      if (error) {
        const description = q.get("error_description") || error;
        toast.error(TEXT.authFailedWith(description));
        navigate("/auth", { replace: true });
        return;
      }
      const session = sessionStore();
      const code = q.get("code");
      if (!code) {
        setProgress("Checking your session...");
        await session.getState().restore();
        if (cancelled) return;
        if (session.getState().status !== "signed_in") {
          navigate("/auth", { replace: true });
          return;
        }
        toast.success(TEXT.welcome, { id: "auth-welcome" });
        navigate(target, { replace: true });
        return;
      }
      setProgress(recovery ? "Verifying your password reset link..." : "Confirming your email address...");
      try {
        const answer = await session.getState().exchange(code);
        if (cancelled) return;
        if (recovery || answer.type === "recovery") {
          if (answer.resetToken) holdResetToken(answer.user.id, answer.resetToken);
          setProgress("Opening the password form...");
          navigate("/auth?view=update_password", { replace: true });
          return;
        }
        if (answer.user.emailVerified === false) {
          await session.getState().signOut();
          toast.error(TEXT.confirmEmail);
          navigate("/auth", { replace: true });
          return;
        }
        toast.success(TEXT.welcome, { id: "auth-welcome" });
        navigate(target, { replace: true });
      } catch (err) {
        if (cancelled) return;
        setFailed(true);
        setProgress("This link could not be used.");
        toast.error(exchangeErrorText(err));
      }
    };

    // The single-use code must be exchanged once: StrictMode's first, cancelled run never fires.
    const timer = setTimeout(() => void go(), CALLBACK_START_MS);
    return () => {
      cancelled = true;
      clearTimeout(timer);
    };
  }, [location.search, location.hash, navigate]);

  return (
    <main id="main" className="auth-page">
      <div className="auth-form" aria-labelledby="callback-title">
        <h1 id="callback-title">{failed ? "Sign-in Failed" : "Signing You In"}</h1>
        <p role="status">
          {!failed && <span className="spinner" aria-hidden="true" />} {progress}
        </p>
        <Link className="button" to="/auth">Return to Sign In</Link>
      </div>
    </main>
  );
}
