// Buy Now and ratings without a browser (spec/accounts.md sections 6-8): what a purchase answer
// leads to, the texts of failed purchases and ratings, the checkout return URL, the marketplace
// calls against a fake fetch, the rating's text alternative, and the refresh event.

import { describe, expect, it } from "vitest";
import { MARKETPLACE_TEXT as T } from "../../../../api/rules/marketplace";
import { ApiRequestError } from "../../../../web/account/api";
import { onMarketplaceRefresh, requestMarketplaceRefresh, MARKETPLACE_REFRESH_EVENT } from "../../../../web/marketplace/events";
import { downloadLink, fetchSounds, purchaseSound, rateSound } from "../../../../web/marketplace/marketplace-api";
import { purchaseErrorText, purchaseReturnSession, purchaseStep } from "../../../../web/marketplace/purchase";
import { ratingErrorText, ratingText, starFill } from "../../../../web/marketplace/rating";

describe("purchaseStep", () => {
  it("owner, checkout, free grant, failure", () => {
    expect(purchaseStep({ success: true, alreadyPurchased: true, checkoutUrl: null })).toEqual({ kind: "owned" });
    expect(purchaseStep({ success: true, alreadyPurchased: false, checkoutUrl: "https://pay/cs_1" })).toEqual({ kind: "checkout", url: "https://pay/cs_1" });
    expect(purchaseStep({ success: true, alreadyPurchased: false, checkoutUrl: null })).toEqual({ kind: "granted" });
    expect(purchaseStep({ success: false })).toEqual({ kind: "failed", text: "Purchase failed" });
    expect(purchaseStep({ success: false, error: "Sound not found" })).toEqual({ kind: "failed", text: "Sound not found" });
  });
});

describe("purchaseErrorText", () => {
  it("no answer: 'Failed to initiate purchase'; an answer: its text or 'Purchase failed'; 401: log in", () => {
    expect(purchaseErrorText(new ApiRequestError("Failed to fetch", 0, true))).toBe("Failed to initiate purchase");
    expect(purchaseErrorText(new TypeError("boom"))).toBe("Failed to initiate purchase");
    expect(purchaseErrorText(new ApiRequestError("Request failed", 500))).toBe("Purchase failed");
    expect(purchaseErrorText(new ApiRequestError("Payments are not configured", 503))).toBe("Payments are not configured");
    expect(purchaseErrorText(new ApiRequestError("Invalid session", 401))).toBe("Please login to purchase");
  });
});

describe("purchaseReturnSession", () => {
  it("reads a paid sound checkout's session id, nothing else", () => {
    expect(purchaseReturnSession(new URLSearchParams("purchase=success&session_id=cs_test_000001"))).toBe("cs_test_000001");
    expect(purchaseReturnSession(new URLSearchParams("session_id=cs_test_000001"))).toBeNull();
    expect(purchaseReturnSession(new URLSearchParams("purchase=success&session_id=../../x"))).toBeNull();
    expect(purchaseReturnSession(new URLSearchParams("purchase=success"))).toBeNull();
  });
});

describe("ratings", () => {
  it("text alternative and fill", () => {
    expect(ratingText(0, 0)).toBe("Not rated yet");
    expect(ratingText(4, 1)).toBe("Rated 4.0 out of 5 by 1 owner");
    expect(ratingText(4.5, 2)).toBe("Rated 4.5 out of 5 by 2 owners");
    expect(starFill(4.5, 2)).toBe(90);
    expect(starFill(0, 0)).toBe(0);
  });

  it("failure texts: 409 says it was rated already", () => {
    expect(ratingErrorText(new ApiRequestError("You have already rated this sound", 409))).toBe("You have already rated this sound");
    expect(ratingErrorText(new ApiRequestError("Request failed", 409))).toBe(T.alreadyRated);
    expect(ratingErrorText(new ApiRequestError("Only owners can rate this sound", 403))).toBe(T.ratingNeedsPurchase);
    expect(ratingErrorText(new ApiRequestError("Failed to fetch", 0, true))).toBe(T.ratingFailed);
  });
});

function fakeFetch(status: number, body: unknown) {
  const calls: { url: string; init: RequestInit }[] = [];
  const impl = (async (url: string, init: RequestInit) => {
    calls.push({ url, init });
    return new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });
  }) as unknown as typeof fetch;
  return { impl, calls };
}

describe("marketplace calls", () => {
  it("list, purchase, download link and rating go to the API's routes with the token", async () => {
    const list = fakeFetch(200, { sounds: [{ id: "a" }] });
    expect(await fetchSounds({ fetchImpl: list.impl })).toEqual([{ id: "a" }]);
    expect(list.calls[0].url).toBe("/api/marketplace/sounds");

    const buy = fakeFetch(200, { success: true, alreadyPurchased: false, checkoutUrl: "u" });
    await purchaseSound("id-1", "tok", { fetchImpl: buy.impl });
    expect(buy.calls[0].url).toBe("/api/marketplace/purchase/id-1");
    expect(buy.calls[0].init.method).toBe("POST");
    expect((buy.calls[0].init.headers as Record<string, string>).Authorization).toBe("Bearer tok");

    const link = fakeFetch(200, { url: "/api/marketplace/sounds/id-1/download?token=x" });
    expect(await downloadLink("id-1", "tok", { fetchImpl: link.impl })).toBe("/api/marketplace/sounds/id-1/download?token=x");
    expect(link.calls[0].url).toBe("/api/marketplace/sounds/id-1/download-link");

    const rate = fakeFetch(409, { error: T.alreadyRated });
    await expect(rateSound("id-1", 4, "tok", { fetchImpl: rate.impl })).rejects.toMatchObject({ status: 409, message: T.alreadyRated });
    expect(JSON.parse(String(rate.calls[0].init.body))).toEqual({ rating: 4 });
  });
});

describe("marketplace-refresh", () => {
  it("is a plain event listeners can subscribe to and leave", () => {
    const target = new EventTarget();
    let heard = 0;
    const off = onMarketplaceRefresh(() => heard++, target);
    requestMarketplaceRefresh(target);
    off();
    requestMarketplaceRefresh(target);
    expect(heard).toBe(1);
    expect(MARKETPLACE_REFRESH_EVENT).toBe("marketplace-refresh");
  });
});
