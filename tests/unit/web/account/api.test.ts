// The body of a password change (web/account/api.ts updatePasswordBody): the reset token of a
// recovery link when the form has one, else the current password; never both.
import { describe, expect, it } from "vitest";
import { updatePasswordBody } from "../../../../web/account/api";

describe("updatePasswordBody", () => {
  const passwords = { newPassword: "tone-Studio-7", confirmNewPassword: "tone-Studio-7" };

  it("sends the current password when there is no reset token", () => {
    expect(updatePasswordBody({ ...passwords, currentPassword: "old-Pass-1", resetToken: null })).toEqual({
      ...passwords,
      currentPassword: "old-Pass-1",
    });
  });

  it("sends the reset token instead after a recovery link", () => {
    expect(updatePasswordBody({ ...passwords, currentPassword: "typed anyway", resetToken: "tok" })).toEqual({
      ...passwords,
      resetToken: "tok",
    });
  });
});
