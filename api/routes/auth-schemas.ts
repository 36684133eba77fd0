// zod schemas of every auth request body and query, each check carrying the spec's user-facing
// text (spec/accounts.md section 5). Inputs are bounded: e-mails 254, passwords 6..256 (compared
// exactly: never trimmed or normalised), names 200, tokens 512. Every password being chosen
// (sign-up, reset, update) must pass the common-password rule of api/rules/passwords.ts.
import { z } from "zod";
import { MSG } from "../messages";
import { PASSWORD_MAX, PASSWORD_MIN } from "../rules/passwords";
import { isTooCommon } from "../services/common-passwords";

const EMAIL_SHAPE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const TOKEN_MAX = 512;

function email(missing: string) {
  return z
    .string({ error: missing })
    .trim()
    .min(1, { error: missing })
    .max(254, { error: MSG.invalidEmail })
    .regex(EMAIL_SHAPE, { error: MSG.invalidEmail })
    .toLowerCase();
}

/** A password being chosen: required, 6..256 characters. */
function newPassword(missing: string, tooShort: string) {
  return z
    .string({ error: missing })
    .min(1, { error: missing })
    .min(PASSWORD_MIN, { error: tooShort })
    .max(PASSWORD_MAX, { error: MSG.passwordTooLong });
}

function optionalConfirmation(mismatch: string) {
  return z.string({ error: mismatch }).max(PASSWORD_MAX, { error: mismatch }).optional();
}

function token(missing: string, invalid: string) {
  return z.string({ error: missing }).min(1, { error: missing }).max(TOKEN_MAX, { error: invalid });
}

const optionalName = z
  .string({ error: MSG.registerMissing })
  .trim()
  .max(200, { error: MSG.nameTooLong })
  .optional();

export const loginBody = z.object(
  {
    email: email(MSG.loginMissing),
    password: z
      .string({ error: MSG.loginMissing })
      .min(1, { error: MSG.loginMissing })
      .max(PASSWORD_MAX, { error: MSG.passwordTooLong }),
  },
  { error: MSG.loginMissing },
);

export const registerBody = z
  .object(
    {
      email: email(MSG.registerMissing),
      password: newPassword(MSG.registerMissing, MSG.passwordTooShort),
      confirmPassword: optionalConfirmation(MSG.passwordsDontMatch),
      fullName: optionalName,
      name: optionalName,
    },
    { error: MSG.registerMissing },
  )
  .refine((b) => b.confirmPassword === undefined || b.confirmPassword === b.password, {
    error: MSG.passwordsDontMatch,
  })
  .refine((b) => !isTooCommon(b.password), { error: MSG.commonPassword });

export const forgotPasswordBody = z.object({ email: email(MSG.forgotMissing) }, { error: MSG.forgotMissing });

/** A signed-in change proves the account with the current password, or with the one-time reset
 *  token that /exchange hands back for a recovery link (the forgot-password flow, where the user
 *  does not know the current one). The new password's texts come first: the current-password
 *  check is the last refinement. */
export const updatePasswordBody = z
  .object(
    {
      newPassword: newPassword(MSG.updateMissing, MSG.passwordTooShort),
      confirmNewPassword: optionalConfirmation(MSG.passwordsDontMatch),
      currentPassword: z
        .string({ error: MSG.currentPasswordMissing })
        .max(PASSWORD_MAX, { error: MSG.currentPasswordWrong })
        .optional(),
      resetToken: token(MSG.resetTokenInvalid, MSG.resetTokenInvalid).optional(),
    },
    { error: MSG.updateMissing },
  )
  .refine((b) => b.confirmNewPassword === undefined || b.confirmNewPassword === b.newPassword, {
    error: MSG.passwordsDontMatch,
  })
  .refine((b) => !isTooCommon(b.newPassword), { error: MSG.commonPassword })
  .refine((b) => b.resetToken !== undefined || (b.currentPassword ?? "") !== "", { error: MSG.currentPasswordMissing });

export const resetPasswordBody = z
  .object(
    {
      token: token(MSG.resetTokenMissing, MSG.resetTokenInvalid),
      password: newPassword(MSG.resetFieldsMissing, MSG.resetTooShort),
      confirmPassword: optionalConfirmation(MSG.resetMismatch),
    },
    { error: MSG.resetTokenMissing },
  )
  .refine((b) => b.confirmPassword === undefined || b.confirmPassword === b.password, {
    error: MSG.resetMismatch,
  })
  .refine((b) => !isTooCommon(b.password), { error: MSG.commonPassword });

export const verifyEmailInput = z.object(
  { token: token(MSG.verifyTokenMissing, MSG.verifyFailed) },
  { error: MSG.verifyTokenMissing },
);

export const exchangeBody = z.object(
  { code: token(MSG.authFailed, MSG.exchangeInvalid) },
  { error: MSG.authFailed },
);
