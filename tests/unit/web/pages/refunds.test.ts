// One refund rule (the Terms: 7 days for a monthly charge, 30 for an annual one): REFUND_TEXT in
// api/rules/plans.ts is the only wording, and the Terms, Support and pricing pages show it.

import { readFileSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { MemoryRouter } from "react-router-dom";
import { describe, expect, it } from "vitest";
import { PLANS, REFUND_DAYS, REFUND_TEXT } from "../../../../api/rules/plans";
import { SupportPage } from "../../../../web/pages/SupportPage";
import { TermsPage } from "../../../../web/pages/TermsPage";

const ROOT = join(import.meta.dirname, "../../../..");

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return /\.tsx?$/.test(name) ? [path] : [];
  });
}

const page = (component: () => React.ReactNode) => renderToStaticMarkup(createElement(MemoryRouter, null, createElement(component)));

describe("the refund rule", () => {
  it("is the Terms' 7 days for monthly, 30 for annual", () => {
    expect(REFUND_DAYS).toEqual({ monthly: 7, annual: 30 });
    expect(REFUND_TEXT).toBe("Refunds within 7 days of a monthly charge and within 30 days of an annual plan's charge.");
    expect(PLANS.commercial.ctaSubtext).toBe("Cancel anytime, 7-day refund window");
  });

  it("is shown by the Terms and Support pages", () => {
    expect(page(TermsPage)).toContain(REFUND_TEXT.replace("'", "&#x27;"));
    expect(page(SupportPage)).toContain(REFUND_TEXT.replace("'", "&#x27;"));
    // The pricing block (it needs the session and the plan list to render) states it too.
    expect(readFileSync(join(ROOT, "web/payments/PlansSection.tsx"), "utf8")).toContain("Cancel anytime. {REFUND_TEXT}");
  });

  it("has no other wording in web/ or api/ (no money-back guarantee, no day counts beside a refund)", () => {
    const rule = join(ROOT, "api/rules/plans.ts");
    const offenders = [...sources(join(ROOT, "web")), ...sources(join(ROOT, "api"))].filter((file) => {
      if (file === rule) return false;
      const text = readFileSync(file, "utf8");
      return /money-back|\bguarantee\b|\d+[- ]days? (?:refund|money)|refund[^.]{0,60}\bwithin \d+ days/i.test(text);
    });
    expect(offenders.map((f) => f.slice(ROOT.length + 1))).toEqual([]);
  });
});
