// Validation texts (spec/accounts.md section 5) and the error catalogue mappings (section 8).

import { describe, expect, it } from "vitest";
import { ApiRequestError } from "../../../../web/account/api";
import {
  exchangeErrorText, forgotErrorText, resetErrorText, signInErrorText, signOutToast, signUpErrorText, studioSignInErrorText, TEXT,
  updatePasswordErrorText, validateForgot, validateResetPassword, validateSignIn, validateSignUp,
  validateUpdatePassword, verifyErrorText,
} from "../../../../web/account/messages";

const http = (status: number, message = "Request failed") => new ApiRequestError(message, status);
const offline = new ApiRequestError("Failed to fetch", 0, true);

describe("validation texts", () => {
  it("sign in needs both fields (e-mail trimmed)", () => {
    const t = "Please enter both your email and password to sign in.";
    expect(validateSignIn("  ", "secret")).toBe(t);
    expect(validateSignIn("a@b.test", "")).toBe(t);
    expect(validateSignIn(" a@b.test ", "secret")).toBeNull();
  });

  it("sign up: all fields, matching, at least 6", () => {
    const ok = { fullName: "Ann", email: "a@b.test", password: "abcdef", confirmPassword: "abcdef" };
    expect(validateSignUp(ok)).toBeNull();
    expect(validateSignUp({ ...ok, fullName: " " })).toBe(
      "Please complete all fields (name, email, and password) to create your account.",
    );
    expect(validateSignUp({ ...ok, confirmPassword: "abcdeg" })).toBe(
      "The passwords you entered don't match. Please check both fields and try again.",
    );
    expect(validateSignUp({ ...ok, password: "abc", confirmPassword: "abc" })).toBe(
      "Your password needs to be at least 6 characters long. Please choose a longer password.",
    );
  });

  it("forgot password needs the e-mail", () => {
    expect(validateForgot(" ")).toBe(
      "Please enter the email address associated with your account to receive a password reset link.",
    );
    expect(validateForgot("a@b.test")).toBeNull();
  });

  it("update password: both fields, match, length, not common", () => {
    expect(validateUpdatePassword("", "x")).toBe("Please enter your new password in both fields to confirm it matches.");
    expect(validateUpdatePassword("abcdef", "abcdeg")).toBe(
      "The passwords you entered don't match. Please check both fields and try again.",
    );
    expect(validateUpdatePassword("abc", "abc")).toMatch(/at least 6 characters/);
    expect(validateUpdatePassword("Password1!", "Password1!")).toBe(
      "That password is too common and easy to guess. Please choose something more unique and secure.",
    );
    expect(validateUpdatePassword("tone-Studio-7", "tone-Studio-7")).toBeNull();
  });

  it("reset page: both fields, match, length", () => {
    expect(validateResetPassword("", "")).toBe("Please fill in both password fields");
    expect(validateResetPassword("abcdef", "abcdeX")).toBe("Passwords do not match");
    expect(validateResetPassword("abc", "abc")).toBe("Password must be at least 6 characters long");
    expect(validateResetPassword("abcdef", "abcdef")).toBeNull();
  });
});

describe("error catalogue", () => {
  it("sign-in errors on the auth screen", () => {
    expect(signInErrorText(http(401, "Invalid credentials - please check your email and password"))).toBe(
      "Incorrect email or password. Please check your credentials and try again.",
    );
    expect(signInErrorText(http(404, "User not found - please check your email address"))).toBe(
      "No account found with this email address. Please check the email or sign up for a new account.",
    );
    expect(signInErrorText(offline)).toBe("Connection error. Please check your internet connection and try again.");
    expect(signInErrorText(http(500))).toBe("Login failed. Please try again or contact support if the problem persists.");
    expect(signInErrorText(http(429, "Too many attempts. Please wait 30 seconds and try again."))).toMatch(/^Too many attempts/);
  });

  it.each([
    [http(401, "Invalid credentials - please check your email and password"), "Invalid credentials - please check your email and password"],
    [http(401), "Invalid credentials - please check your email and password"],
    [http(404), "User not found - please check your email address"],
    [http(500), "Server error - please try again later"],
    [http(502, "Bad gateway"), "Server error - please try again later"],
    [http(503), "Server error - please try again later"],
    [http(429, "Too many attempts. Please wait 30 seconds and try again."), "Too many attempts. Please wait 30 seconds and try again."],
    [http(400, "Please enter a valid email address."), "Please enter a valid email address."],
    [http(400), "Login failed"],
    [http(418, ""), "Login failed"],
    [offline, "Network error - please check your connection and try again"],
    [new TypeError("Failed to fetch"), "Network error - please check your connection and try again"],
    [new Error("something broke"), "Login failed"],
  ])("studio sign-in card: %o -> %j", (err, text) => {
    expect(studioSignInErrorText(err)).toBe(text);
  });

  it("studio sign-out texts: a failed sign-out shows the spec's 'Error signing out' text", () => {
    expect(signOutToast(false)).toEqual({ kind: "error", text: "Error signing out - please refresh the page" });
    expect(signOutToast(true)).toEqual({ kind: "success", text: TEXT.signedOut, duration: 3000 });
    expect(TEXT.signedOut).toMatch(/logged out/);
    expect(TEXT.billingSignOutFailed).toBe("Unable to log out properly. Please try again or refresh the page to clear your session.");
  });

  it("registration keeps the server's message, else 'Registration failed'", () => {
    expect(signUpErrorText(http(409, "An account with this email address already exists. Please sign in instead."))).toMatch(
      /already exists/,
    );
    expect(signUpErrorText(new ApiRequestError("", 500))).toBe("Registration failed");
  });

  it("forgot password", () => {
    expect(forgotErrorText(http(404))).toBe(
      "We couldn't find an account with that email address. Please double-check the email or create a new account.",
    );
    expect(forgotErrorText(http(429, "Too many attempts."))).toBe("Unable to send password reset email: Too many attempts.");
    expect(forgotErrorText(http(500))).toBe("Unable to send password reset email: Please try again in a few minutes.");
    expect(forgotErrorText(offline)).toBe("Connection error. Please check your internet connection and try again.");
  });

  it("update, reset, verify and exchange", () => {
    expect(updatePasswordErrorText(offline)).toBe("Connection error while updating password...");
    expect(resetErrorText(http(400))).toBe("Password reset failed");
    expect(resetErrorText(offline)).toBe("Password reset failed. Please try again.");
    expect(resetErrorText(http(400, "Password reset failed. This reset link is invalid"))).toMatch(/invalid/);
    expect(verifyErrorText(http(502))).toBe("Email verification failed (502)");
    expect(verifyErrorText(offline)).toBe("Email verification failed. Please try again.");
    expect(exchangeErrorText(http(400, "Authentication failed: this link is invalid"))).toBe("Authentication failed: this link is invalid");
    expect(exchangeErrorText(http(400, "bad code"))).toBe("Authentication failed: bad code");
    expect(exchangeErrorText(offline)).toBe("Authentication failed. Please try again.");
  });
});
