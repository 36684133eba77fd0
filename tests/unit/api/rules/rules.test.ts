// api/rules holds the rules and texts both the API and the web app use: both sides show the same
// texts. (That api/rules imports nothing but itself and the engine's plain model is an import rule
// in `npm run lint`, .dependency-cruiser.cjs.)

import { describe, expect, it } from "vitest";
import { MSG } from "../../../../api/messages";
import { PASSWORD_MIN } from "../../../../api/rules/passwords";
import { AUTH_TEXT, BILLING_TEXT } from "../../../../api/rules/texts";
import { TEXT } from "../../../../web/account/messages";

describe("api/rules", () => {
  it("the API and the web app show the same shared texts", () => {
    for (const [key, text] of Object.entries(AUTH_TEXT)) {
      expect(MSG[key as keyof typeof MSG], key).toBe(text);
      expect(TEXT[key as keyof typeof TEXT], key).toBe(text);
    }
  });

  it("the API answers with the shared billing and demo texts", () => {
    for (const [key, text] of Object.entries(BILLING_TEXT)) expect(MSG[key as keyof typeof MSG], key).toBe(text);
  });

  it("the password texts name the minimum the rule enforces", () => {
    expect(PASSWORD_MIN).toBe(6);
    expect(AUTH_TEXT.passwordTooShort).toBe("Your password needs to be at least 6 characters long. Please choose a longer password.");
    expect(AUTH_TEXT.resetTooShort).toBe("Password must be at least 6 characters long");
  });
});
