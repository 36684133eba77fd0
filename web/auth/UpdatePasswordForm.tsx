// update_password mode, reached from a recovery link (through /auth/callback, which signed the
// user in) or from ?view=update_password: a new password twice (spec 5 rules, including the
// common-password rule), POST /api/auth/update-password; success signs out and leads to sign_in.

import { useState } from "react";
import { toast } from "sonner";
import { requestJson } from "../account/api";
import { useSession } from "../account/hooks";
import { TEXT, updatePasswordErrorText, validateUpdatePassword } from "../account/messages";
import { sessionStore } from "../account/session-store";
import { PasswordField } from "./fields";
import type { AuthFormProps } from "./form-types";

export function UpdatePasswordForm({ pending, run, switchTo, setEmail }: AuthFormProps) {
  const [newPassword, setNewPassword] = useState("");
  const [confirmNewPassword, setConfirm] = useState("");
  const status = useSession((s) => s.status);

  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    if (pending) return;
    const invalid = validateUpdatePassword(newPassword, confirmNewPassword);
    if (invalid) {
      toast.error(invalid);
      return;
    }
    void run(async () => {
      const session = sessionStore().getState();
      try {
        await requestJson("/api/auth/update-password", { body: { newPassword, confirmNewPassword }, token: session.token });
      } catch (err) {
        toast.error(updatePasswordErrorText(err));
        return;
      }
      toast.success(TEXT.passwordUpdated);
      const email = session.user?.email ?? "";
      await session.signOut();
      setEmail(email);
      switchTo("sign_in");
    });
  };

  return (
    <form className="auth-form" noValidate onSubmit={submit} aria-labelledby="auth-title">
      <h1 id="auth-title">Choose a New Password</h1>
      {status === "anonymous" && (
        <p className="help" role="note">
          This form needs the link from your password reset email. If it has expired,{" "}
          <button type="button" className="link" onClick={() => switchTo("forgot_password")}>request a new one</button>.
        </p>
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
