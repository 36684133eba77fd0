// The authentication screen (/auth and /verify-email) with its six modes: sign_in, sign_up,
// forgot_password, update_password, check_email and verify_processing. Entry rules (spec 2) come
// from parseAuthEntry: ?view, ?verify / /verify-email?token, ?verified, ?message, ?email and
// ?returnUrl. A visitor already signed in is sent to / with 'Welcome to Tone Studio'; after a
// sign-in the screen waits 1 second, then goes to the return URL.

import { useEffect, useMemo, useRef, useState } from "react";
import { useLocation, useNavigate } from "react-router-dom";
import { toast } from "sonner";
import { requestJson, type MessageAnswer } from "../account/api";
import { parseAuthEntry, redirectsSignedIn, type AuthMode } from "../account/auth-entry";
import { useSession } from "../account/hooks";
import { TEXT, verifyErrorText } from "../account/messages";
import { sessionStore } from "../account/session-store";
import { ForgotPasswordForm } from "./ForgotPasswordForm";
import type { AuthFormProps } from "./form-types";
import { SignInForm } from "./SignInForm";
import { SignUpForm } from "./SignUpForm";
import { UpdatePasswordForm } from "./UpdatePasswordForm";

export const SIGN_IN_REDIRECT_MS = 1000;

/** POST /api/auth/verify-email, falling back to GET ?token= when the POST fails (spec 7). */
async function verifyEmail(token: string): Promise<MessageAnswer> {
  try {
    return await requestJson<MessageAnswer>("/api/auth/verify-email", { body: { token } });
  } catch {
    return requestJson<MessageAnswer>(`/api/auth/verify-email?token=${encodeURIComponent(token)}`);
  }
}

export function AuthPage() {
  const location = useLocation();
  const navigate = useNavigate();
  const entry = useMemo(() => parseAuthEntry(location.pathname, location.search), [location.pathname, location.search]);
  const [mode, setMode] = useState<AuthMode>(entry.mode);
  const [email, setEmail] = useState(entry.email);
  const [pending, setPending] = useState(entry.verifyToken !== null);
  const [checkEmailNote, setCheckEmailNote] = useState<string | null>(null);
  const status = useSession((s) => s.status);
  const started = useRef(false);
  const redirectChecked = useRef(false);
  const redirectTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  useEffect(() => () => clearTimeout(redirectTimer.current), []);

  // Entry toasts and the verification token: once per visit (refs survive StrictMode's re-run).
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    for (const t of entry.toasts) {
      const show = t.kind === "error" ? toast.error : t.kind === "success" ? toast.success : toast.info;
      show(t.text, { id: `auth-entry-${t.text}` });
    }
    if (!entry.verifyToken) return;
    verifyEmail(entry.verifyToken)
      .then((answer) => {
        toast.success(answer.message || TEXT.verifySuccess);
        if (sessionStore().getState().token) void sessionStore().getState().loadProfile(true).catch(() => undefined);
      })
      .catch((err: unknown) => toast.error(verifyErrorText(err)))
      .finally(() => {
        setPending(false);
        setMode("sign_in");
      });
  }, [entry]);

  // Spec 2: a visitor who is already signed in is welcomed and sent to the studio. Decided once,
  // when the stored session has been checked, so a sign-in made here is not redirected twice.
  useEffect(() => {
    if (status === "restoring" || redirectChecked.current) return;
    redirectChecked.current = true;
    if (status === "signed_in" && redirectsSignedIn(entry.mode) && !entry.verifyToken) {
      toast.success(TEXT.welcome, { id: "auth-welcome" });
      navigate("/", { replace: true });
    }
  }, [status, entry, navigate]);

  const run = async (task: () => Promise<void>) => {
    setPending(true);
    try {
      await task();
    } finally {
      setPending(false);
    }
  };

  const switchTo = (next: AuthMode) => {
    if (pending) return; // spec 2: switching is blocked while a request is pending
    setMode(next);
  };

  const onSignedIn = () => {
    clearTimeout(redirectTimer.current);
    redirectTimer.current = setTimeout(() => navigate(entry.afterSignIn, { replace: true }), SIGN_IN_REDIRECT_MS);
  };

  const props: AuthFormProps = { email, setEmail, pending, run, switchTo };
  let body: React.ReactNode;
  switch (mode) {
    case "sign_up":
      body = <SignUpForm key="sign_up" {...props} onSignedIn={onSignedIn} />;
      break;
    case "forgot_password":
      body = (
        <ForgotPasswordForm
          key="forgot"
          {...props}
          onSent={(note) => {
            setCheckEmailNote(note);
            setMode("check_email");
          }}
        />
      );
      break;
    case "update_password":
      body = <UpdatePasswordForm key="update" {...props} />;
      break;
    case "check_email":
      body = (
        <div className="auth-form" role="status" aria-labelledby="auth-title">
          <h1 id="auth-title">Check Your Email</h1>
          <p>{checkEmailNote ?? "If an account exists for that email address, a password reset link is on its way."}</p>
          {email && <p className="help">We sent it to <strong>{email.trim()}</strong>. The link works once and expires in 1 hour.</p>}
          <button type="button" className="button primary" onClick={() => switchTo("sign_in")}>Back to Sign In</button>
          <p className="auth-links">
            <button type="button" className="link" onClick={() => toast.info(TEXT.resendConfirmation)}>
              Need a new confirmation email?
            </button>
          </p>
        </div>
      );
      break;
    case "verify_processing":
      body = (
        <div className="auth-form" role="status" aria-labelledby="auth-title">
          <h1 id="auth-title">Verifying Your Email</h1>
          <p><span className="spinner" aria-hidden="true" /> Please wait while we confirm your email address...</p>
        </div>
      );
      break;
    default:
      body = <SignInForm key="sign_in" {...props} onSignedIn={onSignedIn} />;
  }

  return (
    <main id="main" className="auth-page" data-mode={mode}>
      {body}
    </main>
  );
}
