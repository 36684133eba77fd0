// Helpers for the accessibility e2e tests: what the page's live region announced, and axe-core
// violations of every impact (minor and moderate included) for WCAG 2.1 A and AA.

import type { Page } from "playwright-core";
import { axeViolations, type AxeViolation } from "./browser";

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
export function allAxeViolations(page: Page, include?: string): Promise<AxeViolation[]> {
  return axeViolations(page, { include });
}
