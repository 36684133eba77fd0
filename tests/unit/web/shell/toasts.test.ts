// The frame's toast settings: top-right, as spec/accounts.md section 9 places them, below the site
// header so that a toast never covers the account menu in the same corner.

import { describe, expect, it } from "vitest";
import { TOASTER_PROPS } from "../../../../web/shell/toasts";

describe("toasts", () => {
  it("appear at the top right, dark with rich colours, below the header", () => {
    expect(TOASTER_PROPS).toMatchObject({ position: "top-right", richColors: true, theme: "dark" });
    expect(TOASTER_PROPS.offset.top).toBeGreaterThan(61); // the header's height
    expect(TOASTER_PROPS.mobileOffset.top).toBeGreaterThan(61);
  });
});
