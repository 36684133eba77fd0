// Helpers for the accessibility e2e tests: what the page's live region announced, and axe-core
// violations of every impact (minor and moderate included) for WCAG 2.1 A and AA.

import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { Page } from "playwright-core";
import type { AxeViolation } from "./browser";

/** Starts recording every message the live region (#live-announcer) shows. */
export async function recordAnnouncements(page: Page): Promise<void> {
  await page.locator("#live-announcer").waitFor({ state: "attached" });
  await page.evaluate(() => {
    const w = window as unknown as { __announced: string[] };
    w.__announced = [];
    const region = document.getElementById("live-announcer")!;
    new MutationObserver(() => {
      const text = region.textContent?.trim();
      if (text) w.__announced.push(text);
    }).observe(region, { childList: true, characterData: true, subtree: true });
  });
}

/** The messages announced since recordAnnouncements. */
export function announcements(page: Page): Promise<string[]> {
  return page.evaluate(() => (window as unknown as { __announced: string[] }).__announced.slice());
}

/** axe-core's WCAG 2.1 A/AA violations of every impact on the page (or inside `include`). */
export async function allAxeViolations(page: Page, include?: string): Promise<AxeViolation[]> {
  const axeSource = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");
  if (!(await page.evaluate(() => "axe" in window))) await page.addScriptTag({ content: axeSource });
  return page.evaluate(async (include) => {
    const axe = (window as unknown as { axe: { run(ctx: unknown, opts: object): Promise<{ violations: AxeViolation[] }> } }).axe;
    const result = await axe.run(include ? { include: [include] } : document, {
      runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"] },
    });
    return result.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.slice(0, 3).map((n) => ({ target: n.target })) }));
  }, include);
}
