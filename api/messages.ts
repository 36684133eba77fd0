// User-visible texts the API answers with. Quoted strings from spec/accounts.md (sections 5 and 8)
// are copied verbatim; the rest fill gaps the spec leaves, in the same voice.
export const MSG = {
  // sign in / sign up (spec 5, 8)
  loginMissing: "Please enter both your email and password to sign in.",
  invalidCredentials: "Invalid credentials - please check your email and password",
  userNotFound: "User not found - please check your email address",
  registerMissing: "Please complete all fields (name, email, and password) to create your account.",
  passwordsDontMatch: "The passwords you entered don't match. Please check both fields and try again.",
  passwordTooShort: "Your password needs to be at least 6 characters long. Please choose a longer password.",
  passwordTooLong: "Your password can be at most 256 characters long. Please choose a shorter password.",
  invalidEmail: "Please enter a valid email address.",
  emailTaken: "An account with this email address already exists. Please sign in instead.",
  nameTooLong: "Your name can be at most 200 characters long.",

  // forgot / update / reset password (spec 5, 8)
  forgotMissing: "Please enter the email address associated with your account to receive a password reset link.",
  forgotSent: "If an account exists for that email address, a password reset link is on its way. Please check your inbox.",
  updateMissing: "Please enter your new password in both fields to confirm it matches.",
  commonPassword: "That password is too common and easy to guess. Please choose something more unique and secure.",
  passwordUpdated: "Your password has been updated.",
  resetTokenMissing: "Invalid or missing reset token",
  resetFieldsMissing: "Please fill in both password fields",
  resetMismatch: "Passwords do not match",
  resetTooShort: "Password must be at least 6 characters long",
  resetTokenInvalid: "Password reset failed. This reset link is invalid or has expired - please request a new one.",
  resetSuccess: "Password reset successfully! You can now sign in with your new password.",

  // verification and e-mailed codes
  verifyTokenMissing: "Email verification failed. The verification link is missing its token.",
  verifyFailed: "Email verification failed. This link is invalid or has expired.",
  verifySuccess: "Your email address has been verified. You can now sign in.",
  exchangeMissing: "Authentication failed. Please try again.",
  exchangeInvalid: "Authentication failed: this link is invalid or has expired. Please request a new one.",

  // sessions
  authRequired: "Please sign in to continue",
  invalidToken: "Invalid token",
  signedOut: "You have been signed out.",

  // transport
  tooManyRequests: (seconds: number) =>
    `Too many attempts. Please wait ${seconds} second${seconds === 1 ? "" : "s"} and try again.`,
  bodyTooLarge: "Request body is too large",
  badJson: "Request body must be valid JSON",
  notFound: "Not found",
  serverError: "Server error - please try again later",
} as const;
