// api/rules holds the rules and texts both the API and the web app use. The web bundle imports
// these modules, so they must stay free of dependencies (nothing but each other).

import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { MSG } from "../../../api/messages";
import { PASSWORD_MIN } from "../../../api/rules/passwords";
import { AUTH_TEXT, BILLING_TEXT } from "../../../api/rules/texts";
import { TEXT } from "../../../web/account/messages";

const RULES_DIR = join(import.meta.dirname, "../../../api/rules");

describe("api/rules", () => {
  it.each(readdirSync(RULES_DIR))("%s imports nothing but its siblings", (file) => {
    const source = readFileSync(join(RULES_DIR, file), "utf8");
    const specifiers = [...source.matchAll(/\b(?:import|export)\b[^;]*?\bfrom\s+["']([^"']+)["']/g)].map((m) => m[1]);
    expect(specifiers.filter((s) => !/^\.\/[\w-]+$/.test(s))).toEqual([]);
  });

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
