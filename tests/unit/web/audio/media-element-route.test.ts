import { describe, expect, it } from "vitest";
import { needsMediaElementRoute } from "../../../../web/audio/media-element-route";

const IPHONE = "Mozilla/5.0 (iPhone; CPU iPhone OS 16_2 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/16.2 Mobile/15E148 Safari/604.1";
const IPAD_AS_MAC = "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/16.2 Safari/605.1.15";
const ANDROID = "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Mobile Safari/537.36";

describe("the iPhone output route", () => {
  it("routes through a media element on iOS and iPadOS without navigator.audioSession", () => {
    expect(needsMediaElementRoute({ userAgent: IPHONE })).toBe(true);
    expect(needsMediaElementRoute({ userAgent: IPAD_AS_MAC, maxTouchPoints: 5 })).toBe(true);
  });

  it("plays straight to the destination where audioSession exists, on a Mac and elsewhere", () => {
    expect(needsMediaElementRoute({ userAgent: IPHONE, audioSession: { type: "auto" } })).toBe(false);
    expect(needsMediaElementRoute({ userAgent: IPAD_AS_MAC, maxTouchPoints: 0 })).toBe(false);
    expect(needsMediaElementRoute({ userAgent: ANDROID })).toBe(false);
    expect(needsMediaElementRoute(undefined)).toBe(false);
  });
});
