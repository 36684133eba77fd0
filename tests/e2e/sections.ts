// The studio's sections are tabs (web/studio/StudioSections.tsx): a test opens the one whose
// controls it uses, as a listener would. On a phone the transport's duration, master volume,
// Export WAV and Share sit behind its More button.

import type { Page } from "playwright-core";

export type SectionName = "Channels" | "Effects" | "Session" | "Levels & sleep" | "Quantum";

/** Opens a studio section (tab) and waits until it is the selected one. */
export async function openSection(page: Page, name: SectionName): Promise<void> {
  const tab = page.getByRole("tab", { name, exact: true });
  if ((await tab.getAttribute("aria-selected")) !== "true") await tab.click();
  await page.locator(`[role="tab"][aria-selected="true"]`, { hasText: name }).waitFor();
}

/** Opens the transport's More (a phone's bar) when it is shown; a desktop shows everything. */
export async function openTransportMore(page: Page): Promise<void> {
  const more = page.locator(".transport-more");
  if ((await more.isVisible()) && (await more.getAttribute("aria-expanded")) !== "true") await more.click();
}
