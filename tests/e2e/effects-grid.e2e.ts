// The effects grid as a new Pro user meets it, at 1280 x 900 and on a 390 px phone: the spec's
// split (10 effects in the first row, 20 in the second) wraps into columns, so every card sits
// inside the panel (nothing scrolls sideways, the page never does), no row leaves an empty band,
// and Tab reaches every effect's switch, each one on screen when focused. Screenshots go to
// .tmp/screenshots/effects-grid-{1280,390}.png.

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { EFFECTS } from "../../dsp/host/model/catalogue";
import { screenshotPath, startBrowserApp, type BrowserApp } from "./browser";
import { openSignedIn, registerProAccount } from "./session";
import { openSection } from "./sections";

let run: BrowserApp;

interface Box { left: number; right: number; top: number; bottom: number }

async function openProStudio(width: number, height: number): Promise<Page> {
  const page = await run.browser.newPage({ viewport: { width, height } });
  page.on("pageerror", (e) => console.error("page error:", e.message));
  await openSignedIn(page, run.app.url, await registerProAccount(run.app));
  await openSection(page, "Effects");
  await expect.poll(() => page.getByRole("switch", { name: "Ring Mod", exact: true }).isEnabled()).toBe(true);
  return page;
}

/** The two rows' cards (boxes in page coordinates) and the panel's inner edges. */
function layout(page: Page) {
  return page.evaluate(() => {
    const box = (e: Element) => {
      const r = e.getBoundingClientRect();
      return { left: r.left, right: r.right, top: r.top + scrollY, bottom: r.bottom + scrollY };
    };
    const panel = document.querySelector("section.effects")!;
    const rows = [...panel.querySelectorAll(".effects-row")].map((row) => ({
      label: row.getAttribute("aria-label"),
      cards: [...row.querySelectorAll(".effect-card")].map(box),
      scrolls: row.scrollWidth > row.clientWidth,
    }));
    return { panel: box(panel), rows, pageWidth: document.documentElement.scrollWidth };
  });
}

/** Tabs from the first effect switch through the whole grid; returns the switches reached and
 *  whether each was inside the viewport when it had focus. */
async function tabThroughSwitches(page: Page): Promise<{ name: string; visible: boolean }[]> {
  await page.getByRole("switch", { name: EFFECTS[0].name, exact: true }).focus();
  const reached: { name: string; visible: boolean }[] = [];
  for (let i = 0; i < 200 && reached.length < EFFECTS.length; i++) {
    const info = await page.evaluate(() => {
      const el = document.activeElement as HTMLElement | null;
      if (!el || el.getAttribute("role") !== "switch" || !el.closest(".effect-card")) return null;
      const r = el.getBoundingClientRect();
      // Within a pixel: the browser scrolls a focused control into view to subpixel precision.
      // And not under the transport bar (sticky on a desktop, fixed on a phone): WCAG 2.4.11.
      const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
      const covered = !!hit && !el.contains(hit) && !hit.contains(el) && !!hit.closest(".transport");
      return { name: el.getAttribute("aria-label") ?? "", visible: r.top >= -1 && r.bottom <= innerHeight + 1 && r.left >= 0 && r.right <= innerWidth && !covered };
    });
    if (info) reached.push(info);
    await page.keyboard.press("Tab");
  }
  return reached;
}

function expectInside(cards: Box[], panel: Box): void {
  for (const c of cards) {
    expect(c.left).toBeGreaterThanOrEqual(panel.left);
    expect(c.right).toBeLessThanOrEqual(panel.right);
  }
}

/** No empty band: within one line of cards, every card reaches the line's bottom. */
function expectNoBand(cards: Box[]): void {
  const lines = new Map<number, Box[]>();
  for (const c of cards) lines.set(Math.round(c.top), [...(lines.get(Math.round(c.top)) ?? []), c]);
  for (const line of lines.values()) {
    const bottom = Math.max(...line.map((c) => c.bottom));
    for (const c of line) expect(bottom - c.bottom).toBeLessThan(2);
  }
}

beforeAll(async () => {
  run = await startBrowserApp();
});

afterAll(() => run?.close());

describe("effects grid", () => {
  it("at 1280 x 900: the 10 + 20 split wraps into whole lines inside the panel, every switch reachable by Tab", async () => {
    const page = await openProStudio(1280, 900);
    const { panel, rows, pageWidth } = await layout(page);
    expect(pageWidth).toBeLessThanOrEqual(1280);
    expect(rows.map((r) => [r.label, r.cards.length, r.scrolls])).toEqual([["Effects, row 1", 10, false], ["Effects, row 2", 20, false]]);
    for (const row of rows) {
      expectInside(row.cards, panel);
      expectNoBand(row.cards);
    }
    // Five columns at this width: two full lines, then four.
    const columns = new Set(rows[0].cards.map((c) => Math.round(c.left))).size;
    expect(columns).toBe(5);
    // Row 2 starts below the last line of row 1, close under it (no band between the rows).
    const row1Bottom = Math.max(...rows[0].cards.map((c) => c.bottom));
    const row2Top = Math.min(...rows[1].cards.map((c) => c.top));
    expect(row2Top).toBeGreaterThan(row1Bottom);
    expect(row2Top - row1Bottom).toBeLessThan(60);

    await page.locator("section.effects").screenshot({ path: screenshotPath("effects-grid-1280.png") });
    const reached = await tabThroughSwitches(page);
    expect(reached.map((r) => r.name)).toEqual(EFFECTS.map((d) => d.name));
    expect(reached.filter((r) => !r.visible)).toEqual([]);
    await page.close();
  });

  it("lists the effects that are on with a one-tap Off, filters by kind and searches names", async () => {
    const page = await openProStudio(1280, 900);
    const on = page.locator(".effects-on");
    await expect.poll(() => on.textContent()).toContain("No effect is on.");
    await page.getByRole("switch", { name: "Reverb", exact: true }).check();
    await page.getByRole("switch", { name: "Tremolo", exact: true }).check();
    await expect.poll(() => on.locator("li").allTextContents()).toEqual([expect.stringContaining("Tremolo"), expect.stringContaining("Reverb")]);
    await page.getByRole("button", { name: "Turn Reverb off" }).click();
    expect(await page.getByRole("switch", { name: "Reverb", exact: true }).isChecked()).toBe(false);
    await expect.poll(() => on.locator("li").count()).toBe(1);

    const visibleCards = () => page.locator(".effect-card:visible h3").allTextContents();
    await page.getByRole("button", { name: "Space", exact: true }).click();
    expect((await visibleCards()).sort()).toEqual(["Dark Ambient Granulator", "Granular", "Ping Pong Delay", "Reverb", "Stereo Width"].sort());
    await page.getByRole("button", { name: "All", exact: true }).click();
    await page.getByRole("searchbox", { name: "Search effects" }).fill("crush");
    expect(await visibleCards()).toEqual(["Bitcrusher"]);
    await page.getByRole("searchbox", { name: "Search effects" }).fill("");
    expect(await visibleCards()).toHaveLength(EFFECTS.length);
    await page.getByRole("button", { name: "Turn Tremolo off" }).click();
    await page.close();
  });

  it("on a 390 px phone: two columns, no sideways scroll anywhere, every switch reachable by Tab", async () => {
    const page = await openProStudio(390, 844);
    const { panel, rows, pageWidth } = await layout(page);
    expect(pageWidth).toBeLessThanOrEqual(390);
    expect(rows.map((r) => r.scrolls)).toEqual([false, false]);
    for (const row of rows) {
      expectInside(row.cards, panel);
      expectNoBand(row.cards);
      expect(new Set(row.cards.map((c) => Math.round(c.left))).size).toBe(2);
    }
    expect(panel.left).toBeGreaterThanOrEqual(0);
    expect(panel.right).toBeLessThanOrEqual(390);
    await page.locator("section.effects").screenshot({ path: screenshotPath("effects-grid-390.png") });
    const reached = await tabThroughSwitches(page);
    expect(reached.map((r) => r.name)).toEqual(EFFECTS.map((d) => d.name));
    expect(reached.filter((r) => !r.visible)).toEqual([]);
    await page.close();
  });
});
