// Every user-visible text of the account screens, copied verbatim from spec/accounts.md sections 5
// and 8 (quoted strings there are exact), plus the form validators and the mappers from a failed
// call to the text the spec prescribes. Texts the API answers with as well, and the password
// rules, come from api/rules (dependency-free). Pure: unit-tested without a browser.

import { isCommonPassword, PASSWORD_MIN } from "../../api/rules/passwords";
import { AUTH_TEXT } from "../../api/rules/texts";
import { ApiRequestError, REQUEST_FAILED } from "./api";

export const PRODUCT_NAME = "Tone Studio";

export const TEXT = {
  ...AUTH_TEXT,
  welcome: `Welcome to ${PRODUCT_NAME}`,
  // sign in (auth screen)
  signInBadCredentials: "Incorrect email or password. Please check your credentials and try again.",
  signInNoAccount: "No account found with this email address. Please check the email or sign up for a new account.",
  connectionError: "Connection error. Please check your internet connection and try again.",
  signInFailed: "Login failed. Please try again or contact support if the problem persists.",
  // sign in (the studio's sign-in card; its 401, 404 and 5xx texts are the API's, in AUTH_TEXT)
  loginFailed: "Login failed",
  loginNetwork: "Network error - please check your connection and try again",
  // sign up
  registrationFailed: "Registration failed",
  accountCreated: "Account created! Please check your email to complete setup.",
  /** What signing up gives, said wherever sign-up is offered (the hero, the sign-up form, Support,
   *  How it works) so it agrees with the spec's toast above: the studio opens at once, and the
   *  e-mail that follows verifies the address, which is optional. */
  signUpNote: "Instant access. A verification e-mail follows; verifying is optional.",
  // forgot / update password
  forgotNoAccount:
    "We couldn't find an account with that email address. Please double-check the email or create a new account.",
  forgotFailed: (reason: string) => `Unable to send password reset email: ${reason}`,
  forgotRetryLater: "Please try again in a few minutes.",
  updateConnection: "Connection error while updating password...",
  passwordUpdated: "Your password has been updated. Please sign in with your new password.",
  // reset page
  resetFailed: "Password reset failed",
  resetFailedRetry: "Password reset failed. Please try again.",
  // verification
  verifyFailed: "Email verification failed",
  verifyFailedStatus: (status: number) => `Email verification failed (${status})`,
  verifyThrown: "Email verification failed. Please try again.",
  verifiedFalse: "Email verification failed. Please try again or contact support.",
  resendConfirmation: "Please contact support to resend your confirmation email.",
  // entry messages
  updatePaymentSignIn: "Please sign in to update your payment method",
  // external sign-in return
  authFailedWith: (description: string) => `Authentication failed: ${description}`,
  confirmEmail: "Please confirm your email to continue. Check your inbox for a confirmation link.",
  // sign out: the studio's user menu shows 'Error signing out' (spec/accounts.md section 8,
  // "Logout failure"); the longer text is the billing side's wording of the same failure
  signOutFailed: "Error signing out - please refresh the page",
  billingSignOutFailed: "Unable to log out properly. Please try again or refresh the page to clear your session.",
  signedOut: `Thanks for using ${PRODUCT_NAME}! You have been logged out.`,
  // subscribe, checkout, billing and the demo: web/payments/messages.ts
} as const;

/** Each validator answers the spec's text for the first broken rule, or null when all pass. */
export function validateSignIn(email: string, password: string): string | null {
  return email.trim() && password ? null : TEXT.loginMissing;
}

export function validateSignUp(f: { fullName: string; email: string; password: string; confirmPassword: string }): string | null {
  if (!f.fullName.trim() || !f.email.trim() || !f.password) return TEXT.registerMissing;
  if (f.password !== f.confirmPassword) return TEXT.passwordsDontMatch;
  if (f.password.length < PASSWORD_MIN) return TEXT.passwordTooShort;
  return null;
}

export function validateForgot(email: string): string | null {
  return email.trim() ? null : TEXT.forgotMissing;
}

export function validateUpdatePassword(newPassword: string, confirm: string): string | null {
  if (!newPassword || !confirm) return TEXT.updateMissing;
  if (newPassword !== confirm) return TEXT.passwordsDontMatch;
  if (newPassword.length < PASSWORD_MIN) return TEXT.passwordTooShort;
  if (isCommonPassword(newPassword)) return TEXT.commonPassword;
  return null;
}

export function validateResetPassword(password: string, confirm: string): string | null {
  if (!password || !confirm) return TEXT.resetFieldsMissing;
  if (password !== confirm) return TEXT.resetMismatch;
  if (password.length < PASSWORD_MIN) return TEXT.resetTooShort;
  return null;
}

/** Any thrown value as an ApiRequestError (a TypeError from fetch counts as a network failure). */
export function asApiError(err: unknown): ApiRequestError {
  if (err instanceof ApiRequestError) return err;
  return new ApiRequestError(err instanceof Error ? err.message : String(err), 0, err instanceof TypeError);
}

export const isNetwork = (e: ApiRequestError) => e.network || /network|fetch/i.test(e.message);

/** The server's own error text, or null when the answer carried none. */
export const serverText = (e: ApiRequestError) => (e.message && e.message !== REQUEST_FAILED ? e.message : null);

/** Spec 8, "Sign-in (auth screen)". Rate limits (429) and field checks (400) keep the server's
 *  own text, which says what to do; the spec's catalogue has no entry for them. */
export function signInErrorText(err: unknown): string {
  const e = asApiError(err);
  if (e.status === 401 || /invalid credentials/i.test(e.message)) return TEXT.signInBadCredentials;
  if (e.status === 404 || /user not found/i.test(e.message)) return TEXT.signInNoAccount;
  if (isNetwork(e)) return TEXT.connectionError;
  if (e.status === 429 || e.status === 400) return e.message;
  return TEXT.signInFailed;
}

/** Spec 8, "Sign-in (studio login)": the studio's sign-in card. A status the catalogue does not
 *  name (400, 429) shows the server's error field, which says what to do. */
export function studioSignInErrorText(err: unknown): string {
  const e = asApiError(err);
  if (e.status === 401) return TEXT.invalidCredentials;
  if (e.status === 404) return TEXT.userNotFound;
  if (e.status >= 500) return TEXT.serverError;
  if (e.status > 0) return serverText(e) ?? TEXT.loginFailed;
  return isNetwork(e) ? TEXT.loginNetwork : TEXT.loginFailed;
}

/** How long the sign-out success toast stays (spec/accounts.md section 8: 3 s). */
export const SIGN_OUT_TOAST_MS = 3000;

/** The toast the studio's user menu shows after a sign-out: the success text, or the studio's
 *  failure text when the server did not end the session (the local session is gone either way). */
export function signOutToast(ok: boolean): { kind: "success" | "error"; text: string; duration?: number } {
  return ok ? { kind: "success", text: TEXT.signedOut, duration: SIGN_OUT_TOAST_MS } : { kind: "error", text: TEXT.signOutFailed };
}

/** Spec 8, "Registration": the message, or 'Registration failed'. */
export function signUpErrorText(err: unknown): string {
  const e = asApiError(err);
  if (isNetwork(e)) return TEXT.connectionError;
  return e.message || TEXT.registrationFailed;
}

/** Spec 8, "Forgot password". */
export function forgotErrorText(err: unknown): string {
  const e = asApiError(err);
  if (isNetwork(e)) return TEXT.connectionError;
  if (e.status === 404) return TEXT.forgotNoAccount;
  return TEXT.forgotFailed(serverText(e) ?? TEXT.forgotRetryLater);
}

export function updatePasswordErrorText(err: unknown): string {
  const e = asApiError(err);
  if (isNetwork(e)) return TEXT.updateConnection;
  return e.message;
}

/** Spec 8, "Reset": the server's text, 'Password reset failed' as fallback, the retry text when thrown. */
export function resetErrorText(err: unknown): string {
  const e = asApiError(err);
  if (isNetwork(e)) return TEXT.resetFailedRetry;
  return serverText(e) ?? TEXT.resetFailed;
}

/** Spec 8, "Verification". */
export function verifyErrorText(err: unknown): string {
  const e = asApiError(err);
  if (isNetwork(e)) return TEXT.verifyThrown;
  const text = serverText(e);
  if (text) return text;
  return e.status ? TEXT.verifyFailedStatus(e.status) : TEXT.verifyFailed;
}

/** Spec 8, "External sign-in". */
export function exchangeErrorText(err: unknown): string {
  const e = asApiError(err);
  if (isNetwork(e) || !serverText(e)) return TEXT.authFailed;
  return e.message.startsWith("Authentication failed") ? e.message : TEXT.authFailedWith(e.message);
}
