// User-visible texts that both the API (in its { error } answers) and the web app (in its own form
// checks and error mapping) show, copied verbatim from spec/accounts.md sections 5 and 8, in one
// dependency-free module both sides import. Texts only one side shows stay in api/messages.ts or
// web/account/messages.ts.

import { PASSWORD_MIN } from "./passwords";

export const AUTH_TEXT = {
  // sign in: spec 5, and spec 8 "Sign-in (studio login)"
  loginMissing: "Please enter both your email and password to sign in.",
  invalidCredentials: "Invalid credentials - please check your email and password",
  userNotFound: "User not found - please check your email address",
  serverError: "Server error - please try again later",
  // sign up
  registerMissing: "Please complete all fields (name, email, and password) to create your account.",
  passwordsDontMatch: "The passwords you entered don't match. Please check both fields and try again.",
  passwordTooShort: `Your password needs to be at least ${PASSWORD_MIN} characters long. Please choose a longer password.`,
  // forgot / update / reset password
  forgotMissing: "Please enter the email address associated with your account to receive a password reset link.",
  updateMissing: "Please enter your new password in both fields to confirm it matches.",
  commonPassword: "That password is too common and easy to guess. Please choose something more unique and secure.",
  /** Not in the spec: changing the password while signed in asks for the current one. */
  currentPasswordMissing: "Please enter your current password to change it.",
  resetTokenMissing: "Invalid or missing reset token",
  resetFieldsMissing: "Please fill in both password fields",
  resetMismatch: "Passwords do not match",
  resetTooShort: `Password must be at least ${PASSWORD_MIN} characters long`,
  /** Not in the spec: a spent or expired reset link (the reset page and a change after a recovery
   *  link both show it). */
  resetTokenInvalid: "Password reset failed. This reset link is invalid or has expired - please request a new one.",
  resetSuccess: "Password reset successfully! You can now sign in with your new password.",
  // verification, e-mailed codes and sessions
  verifySuccess: "Your email address has been verified. You can now sign in.",
  authFailed: "Authentication failed. Please try again.",
  invalidToken: "Invalid token",
} as const;

/** Texts of checkout, billing and the demo that the API answers with and the web app may show
 *  (spec/accounts.md section 8). */
export const BILLING_TEXT = {
  paymentsNotConfigured: "Payments are not configured",
  alreadySubscribed: "You already have an active subscription",
  /** Not in the spec: a subscription whose renewal failed (Stripe's past_due or unpaid) is still
   *  there, and a second one would charge twice once the first is paid. */
  subscriptionPaymentDue: "Your subscription's last payment failed. Please update your payment method instead of subscribing again.",
  noBillingAccount: "No billing account found",
  demoUsed: "You have already used the demo period. Upgrade to unlock all features.",
  demoStarted: "Demo mode activated! Amplitude Mod, Ring Mod & Chorus unlocked for 10 minutes.",
  demoExpired: "Demo mode expired. Upgrade to continue using all features.",
} as const;

/** Texts of shared presets (spec/studio.md section 8) that the API answers with and the web app shows. */
export const PRESET_TEXT = {
  notFound: "This preset has expired or was not found",
} as const;
