// User-visible texts the API answers with. Quoted strings from spec/accounts.md (sections 5 and 8)
// are copied verbatim; the rest fill gaps the spec leaves, in the same voice. The texts the web app
// shows as well live in api/rules/texts.ts and are spread in here.
import { PASSWORD_MAX } from "./rules/passwords";
import { AUTH_TEXT, BILLING_TEXT, PRESET_TEXT } from "./rules/texts";

export const MSG = {
  ...AUTH_TEXT,
  ...BILLING_TEXT,
  // sign in / sign up (spec 5, 8)
  passwordTooLong: `Your password can be at most ${PASSWORD_MAX} characters long. Please choose a shorter password.`,
  invalidEmail: "Please enter a valid email address.",
  emailTaken: "An account with this email address already exists. Please sign in instead.",
  nameTooLong: "Your name can be at most 200 characters long.",

  // forgot / update / reset password (spec 5, 8)
  forgotSent: "If an account exists for that email address, a password reset link is on its way. Please check your inbox.",
  passwordUpdated: "Your password has been updated.",
  currentPasswordWrong: "Your current password is incorrect. Please check it and try again.",

  // verification and e-mailed codes
  verifyTokenMissing: "Email verification failed. The verification link is missing its token.",
  verifyFailed: "Email verification failed. This link is invalid or has expired.",
  exchangeInvalid: "Authentication failed: this link is invalid or has expired. Please request a new one.",

  // sessions
  authRequired: "Please sign in to continue",
  signedOut: "You have been signed out.",

  // checkout, billing and the demo; 'Invalid ...' reads as a configuration error in the
  // web app's checkout error mapping (spec 8)
  unknownPrice: "Invalid price. Please choose one of the listed plans.",
  modeMismatch: "Invalid checkout mode for this plan",
  sessionIdInvalid: "Invalid checkout session id",
  sessionNotFound: "Checkout session not found",
  sessionNotYours: "This checkout session belongs to another account",
  returnUrlInvalid: "Invalid return URL",
  paymentServiceDown: "Payment service unavailable. Please try again.",
  webhookSignature: "Invalid webhook signature",
  webhookEventInvalid: "Invalid webhook event",
  demoNotNeeded: "Your plan already unlocks every feature.",
  demoDurationInvalid: "The demo lasts 10 minutes",

  // shared presets
  presetNotFound: PRESET_TEXT.notFound,
  presetNeedsPro: "Sharing presets requires a Pro subscription. Upgrade to share your sounds!",
  presetIdInvalid: "Invalid preset id",
  presetBodyInvalid: "Request body must be a JSON object with name and data",
  presetNameMissing: "Please give the preset a name",
  presetNameTooLong: "The preset name can be at most 100 characters long",
  presetInvalid: (reason: string) => `Invalid preset: ${reason}`,

  // transport
  tooManyRequests: (seconds: number) =>
    `Too many attempts. Please wait ${seconds} second${seconds === 1 ? "" : "s"} and try again.`,
  bodyTooLarge: "Request body is too large",
  badJson: "Request body must be valid JSON",
  rangeNotSatisfiable: "The requested range is outside the file",

  // file storage faults (api/services/storage-faults.ts picks one)
  storageFull: "The server has no space left to store this upload.",
  storageUnwritable: "Uploads are unavailable: the server cannot write its files.",
  storageDown: "File storage is unavailable. Please try again later.",
  notFound: "Not found",
  crossOrigin: "Requests from other sites are not allowed",
  cspReportInvalid: "Invalid CSP report",
} as const;
