// The sound marketplace in real Chromium against the real server and the fake Stripe server.
// An admin with the override renders the studio's sound and uploads it with Upload to
// Store (a studio duration over 59 minutes is refused first); the admin form on /marketplace
// uploads a file. An anonymous visitor sees the shipped sounds and the new ones, previews one
// (the <audio> streams with a range request and plays at volume 0.5), starting a second preview
// stops and rewinds the first, Buy Now asks to log in, and the tabs filter (arrow keys too; an
// empty category says so). A signed-in user buys the uploaded sound (the checkout page pays, the
// webhook is delivered, the page comes back and confirms it), finds it in My sounds, downloads it
// (attachment, the whole WAV) and rates it; a free sound is granted at once. axe (every impact
// level, WCAG 2.1 A and AA) on /marketplace signed out, signed in and with the admin form; the
// page and the upload dialog are photographed at 1280 and 390 px.

import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { Browser, BrowserContext, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SoundDto } from "../../api/rules/marketplace";
import { SEED_SOUNDS } from "../../api/services/marketplace-seed";
import { parseWavHeader } from "../../dsp/host/export/wav";
import { startFakeStripe, type FakeStripe } from "../unit/api/fake-stripe";
import { launchChromium, screenshotPath, startTestApp, waitForSeeds, type AxeViolation, type TestApp } from "./browser";
import { openSignedIn, registerAccount, registerAdminWithOverride, uniqueEmail, type TestAccount } from "./session";
import { openSection } from "./sections";

const DESKTOP = { width: 1280, height: 900 };
const PHONE = { width: 390, height: 844 };
const WEBHOOK_SECRET = "whsec_test_marketplace";
const adminEmail = uniqueEmail("market-admin");
const STUDIO_TITLE = "Studio Healing 432";
const FORM_TITLE = "Admin Form Drone";

let stripe: FakeStripe;
let app: TestApp;
let browser: Browser;
/** The app on its PUBLIC_URL origin (http://localhost:PORT), where Stripe's success URL leads. */
let origin: string;
let admin: TestAccount;

/** A listed sound as the API answers it, with the frequencies a shipped sound's metadata holds. */
type ListedSound = SoundDto & { metadata: { frequencies?: { channels: unknown[]; summary?: string } } };

async function listed(): Promise<ListedSound[]> {
  const res = await fetch(`${app.url}/api/marketplace/sounds`);
  return ((await res.json()) as { sounds: ListedSound[] }).sounds;
}

async function newPage(viewport = DESKTOP, context?: BrowserContext): Promise<Page> {
  const page = await (context ?? browser).newPage({ viewport });
  page.on("pageerror", (e) => console.error("page error:", e.message));
  return page;
}

const toast = (page: Page, text: string) => page.locator("[data-sonner-toast]", { hasText: text });
const card = (page: Page, title: string) => page.getByRole("article", { name: title, exact: true });
const cardTitles = (page: Page) => page.locator(".sound-card h3").allTextContents();

/** The preview <audio> of a card: whether it plays, where it is, its volume. */
function audioOf(c: Locator) {
  return c.locator("audio").evaluate((a: HTMLAudioElement) => ({ paused: a.paused, time: a.currentTime, volume: a.volume, preload: a.preload }));
}

/** axe-core's WCAG 2.1 A/AA violations of EVERY impact level (seriousAxeViolations keeps only
 *  serious and critical ones). */
async function allAxeViolations(page: Page): Promise<AxeViolation[]> {
  const axeSource = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");
  await page.evaluate(axeSource); // not an inline <script>: the app's CSP refuses those (see browser.ts)
  return page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(ctx: Document, opts: object): Promise<{ violations: AxeViolation[] }> } }).axe;
    const result = await axe.run(document, { runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"] } });
    return result.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.slice(0, 3).map((n) => ({ target: n.target })) }));
  });
}

async function expectNoAxeViolations(page: Page): Promise<void> {
  const violations = await allAxeViolations(page);
  expect(violations, JSON.stringify(violations, null, 2)).toEqual([]);
}

/** A mono 16-bit 48 kHz WAV of a 220 Hz sine, `seconds` long. */
function sineWav(seconds: number): Buffer {
  const rate = 48_000;
  const frames = rate * seconds;
  const buf = Buffer.alloc(44 + frames * 2);
  buf.write("RIFF", 0);
  buf.writeUInt32LE(36 + frames * 2, 4);
  buf.write("WAVEfmt ", 8);
  buf.writeUInt32LE(16, 16);
  buf.writeUInt16LE(1, 20);
  buf.writeUInt16LE(1, 22);
  buf.writeUInt32LE(rate, 24);
  buf.writeUInt32LE(rate * 2, 28);
  buf.writeUInt16LE(2, 32);
  buf.writeUInt16LE(16, 34);
  buf.write("data", 36);
  buf.writeUInt32LE(frames * 2, 40);
  for (let i = 0; i < frames; i++) buf.writeInt16LE(Math.round(8000 * Math.sin((2 * Math.PI * 220 * i) / rate)), 44 + i * 2);
  return buf;
}

beforeAll(async () => {
  stripe = await startFakeStripe();
  app = await startTestApp({
    seedMarketplace: true,
    adminEmails: [adminEmail],
    payments: { secretKey: "sk_test_market", webhookSecret: WEBHOOK_SECRET, apiBase: stripe.url },
  });
  // Paying on the fake checkout page delivers the signed checkout.session.completed here.
  stripe.webhook = { url: `${app.url}/api/stripe/webhook`, secret: WEBHOOK_SECRET };
  origin = app.url.replace("127.0.0.1", "localhost");
  browser = await launchChromium();
  admin = await registerAdminWithOverride(app, adminEmail);
  // The shipped sounds are rendered by the engine shortly after the server starts.
  await waitForSeeds(app);
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await app?.close();
  await stripe?.close();
});

describe("uploads", () => {
  it("an admin with the override uploads the studio's sound with Upload to Store", async () => {
    const page = await newPage();
    await openSignedIn(page, origin, admin, "/");
    await openSection(page, "Session");
    const open = page.getByRole("button", { name: "Upload to Store" });
    await open.waitFor();
    await page.getByRole("region", { name: "Publish" }).screenshot({ path: screenshotPath("marketplace-studio-actions-1280.png") });
    // Two channels sound: 432 Hz and 528 Hz.
    await openSection(page, "Channels");
    for (const id of [3, 4]) await page.getByRole("switch", { name: `Channel ${id} on/off` }).uncheck();
    await openSection(page, "Session");
    await page.evaluate(() => {
      (window as unknown as { __refreshes: number }).__refreshes = 0;
      window.addEventListener("marketplace-refresh", () => (window as unknown as { __refreshes: number }).__refreshes++);
    });

    // A studio duration the marketplace cannot list is refused before rendering.
    const setDuration = (s: number) =>
      page.evaluate((s) => (window as unknown as { __toneStudio: { store: { getState(): { setDuration(s: number): void } } } }).__toneStudio.store.getState().setDuration(s), s);
    await setDuration(3660);
    await open.click();
    const dialog = page.getByRole("dialog", { name: "Upload to Store" });
    await dialog.waitFor();
    await dialog.getByLabel("Title (required)").fill("Too long");
    await dialog.getByLabel("Price in USD (required, 0 for free)").fill("0");
    await dialog.getByRole("button", { name: "Upload", exact: true }).click();
    await toast(page, "Marketplace sounds can be at most 59 minutes long").waitFor();
    await dialog.getByRole("button", { name: "Close" }).click();
    await expect.poll(() => dialog.count()).toBe(0);
    await setDuration(30);

    await open.click();
    await dialog.waitFor();
    await expect.poll(() => dialog.locator(".upload-source").textContent()).toContain("432 Hz + 528 Hz");
    // The spec's texts for a missing title and a bad price.
    await dialog.getByRole("button", { name: "Upload", exact: true }).click();
    await toast(page, "Please fill in all required fields").waitFor();
    await dialog.getByLabel("Title (required)").fill(STUDIO_TITLE);
    await dialog.getByLabel("Price in USD (required, 0 for free)").fill("-1");
    await dialog.getByRole("button", { name: "Upload", exact: true }).click();
    await toast(page, "Please enter a valid price (0 or higher)").waitFor();

    await dialog.getByLabel("Description").fill("Two pure tones rendered by the studio's engine.");
    await dialog.getByLabel("Price in USD (required, 0 for free)").fill("1.50");
    await dialog.getByLabel("Category").selectOption("Healing");
    await dialog.getByLabel("Tags (comma separated)").fill("healing, 432hz, e2e, fourth-tag");
    await dialog.getByLabel("Specs (optional)").fill("48 kHz, 16-bit stereo WAV");
    await page.screenshot({ path: screenshotPath("marketplace-upload-dialog-1280.png") });
    const workers: string[] = [];
    page.on("worker", (w) => workers.push(w.url()));
    await dialog.getByRole("button", { name: "Upload", exact: true }).click();
    await toast(page, "Sound uploaded to marketplace successfully!").waitFor({ timeout: 60_000 });
    await expect.poll(() => dialog.count()).toBe(0);
    expect(await page.evaluate(() => (window as unknown as { __refreshes: number }).__refreshes)).toBe(1);
    // Rendered by Export WAV's worker, not a second renderer.
    expect(workers.filter((u) => /\/export\.worker-[\w-]+\.js$/.test(u))).toHaveLength(1);

    const sound = (await listed()).find((s) => s.title === STUDIO_TITLE);
    expect(sound).toMatchObject({ price: 150, category: "Healing", duration: 30 });
    expect(sound!.metadata.tags).toEqual(["healing", "432hz", "e2e", "fourth-tag"]);
    expect(sound!.metadata.frequencies).toEqual({
      channels: [
        { frequency: 432, volume: 0.5, waveform: "sine" },
        { frequency: 528, volume: 0.5, waveform: "sine" },
      ],
      summary: "432 Hz + 528 Hz",
    });

    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Marketplace" }).click();
    await card(page, STUDIO_TITLE).waitFor();
    await page.close();
  });

  it("the admin form on /marketplace uploads a file with progress and the list shows it", async () => {
    const page = await newPage();
    await openSignedIn(page, origin, admin, "/marketplace");
    const form = page.locator("details.admin-upload");
    await form.locator("summary").click();
    await card(page, STUDIO_TITLE).waitFor();
    // Before any toast: sonner's light error toast (red on pink) is under 4.5:1 contrast, an
    // app-wide Toaster setting outside this page.
    await expectNoAxeViolations(page);
    await form.getByRole("button", { name: "Upload Sound" }).click();
    await toast(page, "Please fill in all required fields").waitFor();

    await form.getByLabel(/^Audio file/).setInputFiles({ name: "drone.wav", mimeType: "audio/wav", buffer: sineWav(2) });
    await form.getByLabel("Title (required)").fill(FORM_TITLE);
    await form.getByLabel("Price in USD (required, 0 for free)").fill("0");
    await form.getByLabel(/^Duration in minutes/).fill("60");
    await form.getByLabel("Category").selectOption("Ambient");
    await form.getByRole("button", { name: "Upload Sound" }).click();
    await toast(page, "Please enter a duration of 1 to 59 minutes").waitFor();
    await form.getByLabel(/^Duration in minutes/).fill("1");
    await form.getByLabel("Tags (comma separated)").fill("drone, ambient");
    await page.screenshot({ path: screenshotPath("marketplace-admin-1280.png"), fullPage: true });
    await form.getByRole("button", { name: "Upload Sound" }).click();
    await toast(page, "Sound uploaded successfully!").waitFor();
    // The refresh event brings the new sound into the list without a reload.
    await card(page, FORM_TITLE).waitFor();
    expect(await form.getByLabel("Title (required)").inputValue()).toBe("");
    await page.close();
  });
});

describe("browsing and previews (anonymous)", () => {
  it("lists the shipped sounds and the uploads with their details", async () => {
    const page = await newPage();
    await page.goto(origin + "/marketplace");
    await expect.poll(() => page.locator(".sound-card").count()).toBe(SEED_SOUNDS.length + 2);
    const titles = await cardTitles(page);
    for (const s of SEED_SOUNDS) expect(titles).toContain(s.title);
    expect(titles).toContain(STUDIO_TITLE);

    const uploaded = card(page, STUDIO_TITLE);
    expect(await uploaded.locator(".sound-tags li").allTextContents()).toEqual(["healing", "432hz", "e2e"]);
    expect(await uploaded.locator(".sound-price").textContent()).toBe("$1.50");
    expect(await uploaded.locator("dt:text-is('Duration') + dd").textContent()).toBe("0:30");
    expect(await uploaded.locator("dt:text-is('Downloads') + dd").textContent()).toBe("0");
    expect(await uploaded.locator(".rating .sr-only").textContent()).toBe("Not rated yet");
    const free = card(page, "Schumann Calm");
    expect(await free.locator(".sound-price").textContent()).toBe("$0.00Free");
    expect(await free.locator("dt:text-is('Duration') + dd").textContent()).toBe("1:00");
    expect(await card(page, "Theta Drift").locator(".sound-price").textContent()).toBe("$1.99");
    // Anonymous visitors get neither My sounds nor the upload form.
    expect(await page.getByRole("heading", { name: "My sounds" }).count()).toBe(0);
    expect(await page.locator("details.admin-upload").count()).toBe(0);
    await page.close();
  });

  it("previews one sound at a time, streamed with range requests, at volume 0.5", async () => {
    const page = await newPage();
    const ranged: number[] = [];
    page.on("response", (r) => {
      if (r.url().includes("/preview")) ranged.push(r.status());
    });
    await page.goto(origin + "/marketplace");
    const first = card(page, "Schumann Calm");
    const second = card(page, STUDIO_TITLE);
    await first.waitFor();
    expect(await audioOf(first)).toMatchObject({ paused: true, preload: "none" });
    expect(ranged).toEqual([]); // preload="none": nothing fetched before Preview

    await first.getByRole("button", { name: "Preview" }).click();
    await expect.poll(async () => (await audioOf(first)).time, { timeout: 20_000 }).toBeGreaterThan(0.3);
    const a = await audioOf(first);
    expect(a).toMatchObject({ paused: false, volume: 0.5 });
    await expect.poll(async () => (await audioOf(first)).time).toBeGreaterThan(a.time + 0.2); // it advances
    expect(ranged).toContain(206);
    expect(await first.getByRole("button", { name: "Stop" }).count()).toBe(1);

    await second.getByRole("button", { name: "Preview" }).click();
    await expect.poll(async () => (await audioOf(second)).time, { timeout: 20_000 }).toBeGreaterThan(0.2);
    expect(await audioOf(first)).toMatchObject({ paused: true, time: 0 });
    expect((await audioOf(second)).paused).toBe(false);
    expect(await first.getByRole("button", { name: "Preview" }).count()).toBe(1);

    // Clicking the playing one stops and rewinds it.
    await second.getByRole("button", { name: "Stop" }).click();
    await expect.poll(async () => (await audioOf(second)).paused).toBe(true);
    expect((await audioOf(second)).time).toBe(0);
    await page.close();
  });

  it("Buy Now asks an anonymous visitor to log in; tabs filter by category, arrow keys too", async () => {
    const page = await newPage();
    await page.goto(origin + "/marketplace");
    await card(page, "Theta Drift").getByRole("button", { name: "Buy Now" }).click();
    await toast(page, "Please login to purchase").waitFor();
    expect(stripe.requestsTo("/v1/checkout/sessions")).toHaveLength(0);

    const tabs = page.getByRole("tablist", { name: "Categories" });
    expect(await tabs.getByRole("tab").allTextContents()).toEqual(["All", "Binaural", "Isochronic", "Ambient", "Healing", "Focus", "Sleep", "Meditation"]);
    await tabs.getByRole("tab", { name: "Isochronic" }).click();
    await page.getByText("No sounds found in this category").waitFor();
    expect(await page.locator(".sound-card").count()).toBe(0);

    await tabs.getByRole("tab", { name: "Healing" }).click();
    expect(await cardTitles(page)).toEqual([STUDIO_TITLE]);
    expect(await page.getByRole("tabpanel").getAttribute("aria-labelledby")).toBe(await tabs.getByRole("tab", { name: "Healing" }).getAttribute("id"));

    // Keyboard: the selected tab is the one in the Tab order; arrows move and select, wrapping.
    await tabs.getByRole("tab", { name: "Healing" }).focus();
    await page.keyboard.press("ArrowRight");
    await expect.poll(() => tabs.getByRole("tab", { name: "Focus" }).getAttribute("aria-selected")).toBe("true");
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe("Focus");
    expect(await cardTitles(page)).toEqual(["Deep Focus 10"]);
    await page.keyboard.press("End");
    await page.keyboard.press("ArrowRight");
    await expect.poll(() => tabs.getByRole("tab", { name: "All" }).getAttribute("aria-selected")).toBe("true");
    expect(await page.locator(".sound-card").count()).toBe(SEED_SOUNDS.length + 2);
    expect(await tabs.locator("[tabindex='0']").allTextContents()).toEqual(["All"]);
    await page.close();
  });

  it("axe finds nothing signed out; the page fits 1280 and 390 px", async () => {
    for (const [viewport, name] of [[DESKTOP, "1280"], [PHONE, "390"]] as const) {
      const page = await newPage(viewport);
      await page.goto(origin + "/marketplace");
      await expect.poll(() => page.locator(".sound-card").count()).toBe(SEED_SOUNDS.length + 2);
      await page.screenshot({ path: screenshotPath(`marketplace-anonymous-${name}.png`), fullPage: true });
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
      await expectNoAxeViolations(page);
      await page.close();
    }
  });
});

describe("buying, downloading and rating", () => {
  let buyer: TestAccount;

  it("a signed-in user buys the uploaded sound through checkout and finds it in My sounds", async () => {
    buyer = await registerAccount(app.url);
    const page = await newPage();
    await openSignedIn(page, origin, buyer, "/marketplace");
    const mine = page.getByRole("region", { name: "My sounds" });
    await mine.getByText("Sounds you buy appear here").waitFor();
    const visited: string[] = [];
    await page.route(`${stripe.url}/pay/**`, async (route) => {
      visited.push(route.request().url());
      await route.continue(); // the fake pays, delivers the webhook and redirects to the success URL
    });
    await card(page, STUDIO_TITLE).getByRole("button", { name: "Buy Now" }).click();
    await toast(page, "Thank you! The sound is now in My sounds.").waitFor({ timeout: 30_000 });
    expect(visited).toHaveLength(1);
    const checkout = stripe.requestsTo("/v1/checkout/sessions").find((r) => r.method === "POST");
    expect(checkout?.form).toMatchObject({ mode: "payment", "line_items[0][price_data][unit_amount]": "150", "metadata[kind]": "sound" });
    // The query is cleared once handled.
    await expect.poll(() => new URL(page.url()).search).toBe("");

    await mine.getByRole("heading", { name: STUDIO_TITLE }).waitFor();
    await card(page, STUDIO_TITLE).getByText("Owned").waitFor();

    // Buying it again: already owned, no new checkout.
    await card(page, STUDIO_TITLE).getByRole("button", { name: "Buy Now" }).click();
    await toast(page, "You already own this sound!").waitFor();
    expect(stripe.requestsTo("/v1/checkout/sessions").filter((r) => r.method === "POST")).toHaveLength(1);

    // A free sound is granted at once.
    await card(page, "Schumann Calm").getByRole("button", { name: "Buy Now" }).click();
    await mine.getByRole("heading", { name: "Schumann Calm" }).waitFor();
    expect(await mine.locator(".owned-sound h3").allTextContents()).toEqual(["Schumann Calm", STUDIO_TITLE]);
    await page.close();
  });

  it("paying for one sound in two tabs: the first is owned, the second refunded with a notice", async () => {
    const account = await registerAccount(app.url);
    const tabs = [await newPage(), await newPage()];
    // Both tabs reach the payment page before either pays.
    const gates = tabs.map(() => {
      let open!: () => void;
      const opened = new Promise<void>((r) => (open = r));
      return { open, opened, reached: false };
    });
    for (const [i, tab] of tabs.entries()) {
      await openSignedIn(tab, origin, account, "/marketplace");
      await tab.route(`${stripe.url}/pay/**`, async (route) => {
        gates[i].reached = true;
        await gates[i].opened;
        await route.continue();
      });
      // Signed in (My sounds is shown) and the button ready, as a person would see it.
      await tab.getByRole("region", { name: "My sounds" }).waitFor();
      const buyNow = card(tab, STUDIO_TITLE).getByRole("button", { name: "Buy Now" });
      await expect.poll(() => buyNow.isEnabled(), { timeout: 15_000 }).toBe(true);
      // Not click(): it would wait for the navigation to the payment page, which is held here.
      await buyNow.dispatchEvent("click");
      await expect.poll(() => gates[i].reached, { timeout: 15_000 }).toBe(true);
    }
    const refundsBefore = stripe.refunds.length;
    gates[0].open();
    await toast(tabs[0], "Thank you! The sound is now in My sounds.").waitFor({ timeout: 30_000 });
    gates[1].open();
    await toast(tabs[1], "You already own this sound, so this second payment has been refunded.").waitFor({ timeout: 30_000 });
    await expect.poll(() => stripe.refunds.length).toBe(refundsBefore + 1);
    await tabs[1].getByRole("region", { name: "My sounds" }).getByRole("heading", { name: STUDIO_TITLE }).waitFor();
    for (const tab of tabs) await tab.close();
  });

  it("downloads the whole file as an attachment and rates it once", async () => {
    const page = await newPage();
    await openSignedIn(page, origin, buyer, "/marketplace");
    const mine = page.getByRole("region", { name: "My sounds" });
    const item = mine.locator(".owned-sound", { has: page.getByRole("heading", { name: STUDIO_TITLE }) });
    await item.waitFor();

    const [download] = await Promise.all([page.waitForEvent("download", { timeout: 30_000 }), item.getByRole("button", { name: "Download" }).click()]);
    expect(download.suggestedFilename()).toBe(`${STUDIO_TITLE}.wav`);
    const file = readFileSync(await download.path());
    const header = parseWavHeader(file);
    expect(header).toMatchObject({ sampleRate: 48000, channels: 2 });
    expect(header.dataBytes).toBe(30 * 48000 * 4);
    // The same link, fetched directly: 200 with the attachment header.
    const res = await fetch(new URL(download.url(), origin));
    expect(res.status).toBe(200);
    expect(res.headers.get("content-disposition")).toMatch(new RegExp(`^attachment; filename="${STUDIO_TITLE}.wav"`));
    await res.body?.cancel();

    const rate = item.getByRole("group", { name: `Rate ${STUDIO_TITLE}` });
    await rate.getByRole("button", { name: "4 stars" }).click();
    await toast(page, "Thanks for rating this sound!").waitFor();
    await item.getByText("Your rating: 4/5").waitFor();
    expect(await rate.count()).toBe(0);
    const rated = card(page, STUDIO_TITLE);
    await expect.poll(() => rated.locator(".rating .sr-only").textContent()).toBe("Rated 4.0 out of 5 by 1 owner");
    await expect.poll(() => rated.locator("dt:text-is('Downloads') + dd").textContent()).toBe("2");

    // A second rating through the API is refused with the spec's text.
    const again = await fetch(`${app.url}/api/marketplace/sounds/${(await listed()).find((s) => s.title === STUDIO_TITLE)!.id}/rating`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Authorization: `Bearer ${buyer.token}` },
      body: JSON.stringify({ rating: 1 }),
    });
    expect(again.status).toBe(409);
    expect(await again.json()).toEqual({ error: "You have already rated this sound" });
    await page.close();
  });

  it("axe finds nothing signed in (My sounds, ratings); the page fits 1280 and 390 px", async () => {
    for (const [viewport, name] of [[DESKTOP, "1280"], [PHONE, "390"]] as const) {
      const page = await newPage(viewport);
      await openSignedIn(page, origin, buyer, "/marketplace");
      await page.getByRole("region", { name: "My sounds" }).getByRole("heading", { name: STUDIO_TITLE }).waitFor();
      await page.screenshot({ path: screenshotPath(`marketplace-signed-in-${name}.png`), fullPage: true });
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
      await expectNoAxeViolations(page);
      await page.close();
    }
  });
});

describe("phone layouts", () => {
  it("the admin's marketplace and the Upload to Store dialog at 390 px", async () => {
    const page = await newPage(PHONE);
    await openSignedIn(page, origin, admin, "/marketplace");
    await page.locator("details.admin-upload summary").click();
    await page.getByRole("button", { name: "Upload Sound" }).waitFor();
    await page.screenshot({ path: screenshotPath("marketplace-admin-390.png"), fullPage: true });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);

    await page.goto(origin + "/");
    await openSection(page, "Session");
    const actions = page.getByRole("region", { name: "Publish" });
    await actions.getByRole("button", { name: "Upload to Store" }).waitFor();
    await actions.screenshot({ path: screenshotPath("marketplace-studio-actions-390.png") });
    await page.getByRole("button", { name: "Upload to Store" }).click();
    const dialog = page.getByRole("dialog", { name: "Upload to Store" });
    await dialog.waitFor();
    await page.screenshot({ path: screenshotPath("marketplace-upload-dialog-390.png") });
    const box = await dialog.boundingBox();
    expect(box!.x).toBeGreaterThanOrEqual(0);
    expect(box!.x + box!.width).toBeLessThanOrEqual(PHONE.width);
    await expectNoAxeViolations(page);
    await page.keyboard.press("Escape");
    await expect.poll(() => dialog.count()).toBe(0);
    await page.close();
  });
});
