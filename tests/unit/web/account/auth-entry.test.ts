// Entry rules of the auth screen (spec/accounts.md section 2), parsed from path and query only.

import { describe, expect, it } from "vitest";
import { parseAuthEntry, redirectsSignedIn, safeReturnPath } from "../../../../web/account/auth-entry";
import { TEXT } from "../../../../web/account/messages";

describe("auth entry rules", () => {
  it("opens sign_in by default and goes to / after sign-in", () => {
    expect(parseAuthEntry("/auth", "")).toEqual({ mode: "sign_in", verifyToken: null, toasts: [], email: "", afterSignIn: "/" });
  });

  it.each(["sign_up", "forgot_password", "update_password", "sign_in"])("view=%s opens that mode", (view) => {
    expect(parseAuthEntry("/auth", `?view=${view}`).mode).toBe(view);
  });

  it("ignores views that need context first, and unknown views", () => {
    expect(parseAuthEntry("/auth", "?view=check_email").mode).toBe("sign_in");
    expect(parseAuthEntry("/auth", "?view=verify_processing").mode).toBe("sign_in");
    expect(parseAuthEntry("/auth", "?view=admin").mode).toBe("sign_in");
  });

  it("/verify-email?token= opens verify_processing with the token", () => {
    const e = parseAuthEntry("/verify-email", "?token=abc123");
    expect(e.mode).toBe("verify_processing");
    expect(e.verifyToken).toBe("abc123");
  });

  it("/verify-email without a token shows the failure toast and opens sign_in", () => {
    const e = parseAuthEntry("/verify-email/", "");
    expect(e.mode).toBe("sign_in");
    expect(e.toasts).toEqual([{ kind: "error", text: TEXT.verifiedFalse }]);
  });

  it("?verify=<token> also triggers verification", () => {
    const e = parseAuthEntry("/auth", "?verify=tok%2Bx");
    expect(e).toMatchObject({ mode: "verify_processing", verifyToken: "tok+x" });
  });

  it("verified=true / false show a result toast and open sign_in", () => {
    expect(parseAuthEntry("/auth", "?verified=true&view=sign_up")).toMatchObject({
      mode: "sign_in",
      toasts: [{ kind: "success", text: TEXT.verifySuccess }],
    });
    expect(parseAuthEntry("/auth", "?verified=false").toasts).toEqual([
      { kind: "error", text: "Email verification failed. Please try again or contact support." },
    ]);
  });

  it("message=update-payment asks to sign in and returns to /update-payment", () => {
    const e = parseAuthEntry("/auth", "?message=update-payment");
    expect(e.toasts).toEqual([{ kind: "info", text: "Please sign in to update your payment method" }]);
    expect(e.afterSignIn).toBe("/update-payment");
  });

  it("email prefills; returnUrl wins over the update-payment target", () => {
    const e = parseAuthEntry("/auth", "?email=a%40b.test&returnUrl=%2Fsubscribe%3Fplan%3Dmonthly&message=update-payment");
    expect(e.email).toBe("a@b.test");
    expect(e.afterSignIn).toBe("/subscribe?plan=monthly");
  });

  it("refuses return URLs that leave the site", () => {
    for (const bad of ["https://evil.test/", "//evil.test", "/\\evil.test", "javascript:alert(1)", "app", "/a\nb"]) {
      expect(safeReturnPath(bad)).toBeNull();
      expect(parseAuthEntry("/auth", `?returnUrl=${encodeURIComponent(bad)}`).afterSignIn).toBe("/");
    }
    expect(safeReturnPath("/app")).toBe("/app");
  });

  it("redirects signed-in visitors from the sign-in modes only", () => {
    expect(redirectsSignedIn("sign_in")).toBe(true);
    expect(redirectsSignedIn("sign_up")).toBe(true);
    expect(redirectsSignedIn("update_password")).toBe(false);
    expect(redirectsSignedIn("verify_processing")).toBe(false);
  });
});
