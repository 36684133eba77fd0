// Sign-up tells one story: the spec's toast after sign-up ('Account created! Please check your
// email to complete setup.') and the note wherever sign-up is offered both say there is an
// e-mail; the note adds that access is instant and verifying optional.

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { MemoryRouter } from "react-router-dom";
import { describe, expect, it } from "vitest";
import { TEXT } from "../../../../web/account/messages";
import { HowItWorksPage } from "../../../../web/pages/HowItWorksPage";
import { SupportPage } from "../../../../web/pages/SupportPage";
import { HERO_CTA_NOTE } from "../../../../web/studio/Hero";

const ROOT = join(import.meta.dirname, "../../../..");
const page = (component: () => React.ReactNode) => renderToStaticMarkup(createElement(MemoryRouter, null, createElement(component)));

describe("the sign-up note", () => {
  it("keeps the spec's toast and says instant access with an optional verification e-mail", () => {
    expect(TEXT.accountCreated).toBe("Account created! Please check your email to complete setup.");
    expect(TEXT.signUpNote).toBe("Instant access. A verification e-mail follows; verifying is optional.");
    expect(HERO_CTA_NOTE).toBe(TEXT.signUpNote);
  });

  it("is what Support, How it works and the sign-up form say; nothing says 'no email verification'", () => {
    expect(page(SupportPage)).toContain(TEXT.signUpNote);
    expect(page(HowItWorksPage)).toContain(TEXT.signUpNote);
    expect(readFileSync(join(ROOT, "web/auth/SignUpForm.tsx"), "utf8")).toContain("{TEXT.signUpNote}");
    for (const file of ["web/studio/Hero.tsx", "web/auth/SignUpForm.tsx", "web/pages/SupportPage.tsx", "web/pages/HowItWorksPage.tsx", "web/account/SignInCard.tsx"]) {
      expect(readFileSync(join(ROOT, file), "utf8"), file).not.toMatch(/no email verification/i);
    }
  });
});
