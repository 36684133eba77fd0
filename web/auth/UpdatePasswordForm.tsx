// update_password mode, reached from a recovery link (through /auth/callback, which signed the
// user in) or from ?view=update_password: a new password twice (spec 5 rules, including the
// common-password rule), POST /api/auth/update-password; success signs out and leads to sign_in.
// The server asks for proof that the account is the user's: after a recovery link, the one-time
// reset token the callback kept (recovery-token.ts); otherwise the current password, in its own
// field.

import { useReducer, useState } from "react";
import { toast } from "sonner";
import { requestJson, updatePasswordBody } from "../account/api";
import { useSession } from "../account/hooks";
import { TEXT, updatePasswordErrorText, validateUpdatePassword } from "../account/messages";
import { sessionStore } from "../account/session-store";
import { PasswordField } from "./fields";
import type { AuthFormProps } from "./form-types";
import { dropResetToken, resetTokenFor } from "./recovery-token";

export function UpdatePasswordForm({ pending, run, switchTo, setEmail }: AuthFormProps) {
  const [currentPassword, setCurrentPassword] = useState("");
  const [newPassword, setNewPassword] = useState("");
  const [confirmNewPassword, setConfirm] = useState("");
  const status = useSession((s) => s.status);
  const userId = useSession((s) => s.user?.id);
  // The held token lives outside React: re-render when it is dropped.
  const [, tokenDropped] = useReducer((n: number) => n + 1, 0);
  const resetToken = resetTokenFor(userId);

  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    if (pending) return;
    const invalid = !resetToken && !currentPassword ? TEXT.currentPasswordMissing : validateUpdatePassword(newPassword, confirmNewPassword);
    if (invalid) {
      toast.error(invalid);
      return;
    }
    void run(async () => {
      const session = sessionStore().getState();
      const body = updatePasswordBody({ newPassword, confirmNewPassword, currentPassword, resetToken });
      try {
        await requestJson("/api/auth/update-password", { body, token: session.token });
      } catch (err) {
        toast.error(updatePasswordErrorText(err));
        // A spent or expired reset token will not work again: ask for the current password.
        if (resetToken && err instanceof Error && err.message === TEXT.resetTokenInvalid) {
          dropResetToken();
          tokenDropped();
        }
        return;
      }
      dropResetToken();
      toast.success(TEXT.passwordUpdated);
      const email = session.user?.email ?? "";
      await session.signOut();
      setEmail(email);
      switchTo("sign_in");
    });
  };

  const forgotLink = (text: string) => (
    <button type="button" className="link" onClick={() => switchTo("forgot_password")} disabled={pending}>{text}</button>
  );
  return (
    <form className="auth-form" noValidate onSubmit={submit} aria-labelledby="auth-title">
      <h1 id="auth-title">Choose a New Password</h1>
      {status === "anonymous" && (
        <p className="help" role="note">
          This form needs the link from your password reset email. If it has expired, {forgotLink("request a new one")}.
        </p>
      )}
      {status !== "anonymous" && !resetToken && (
        <>
          <p className="help" role="note">
            Enter your current password to confirm it is you. Forgot it? {forgotLink("Get a reset link")} instead.
          </p>
          <PasswordField
            label="Current password"
            autoComplete="current-password"
            value={currentPassword}
            onChange={setCurrentPassword}
            disabled={pending}
          />
        </>
      )}
      <PasswordField label="New password" autoComplete="new-password" value={newPassword} onChange={setNewPassword} disabled={pending} />
      <PasswordField
        label="Confirm new password"
        autoComplete="new-password"
        value={confirmNewPassword}
        onChange={setConfirm}
        disabled={pending}
      />
      <button type="submit" className="button primary" disabled={pending}>
        {pending ? "Updating..." : "Update Password"}
      </button>
    </form>
  );
}
