// The frame's toast settings: top-right, as spec/accounts.md section 9 places them.

import { describe, expect, it } from "vitest";
import { TOASTER_PROPS } from "../../../../web/shell/toasts";

describe("toasts", () => {
  it("appear at the top right, dark with rich colours", () => {
    expect(TOASTER_PROPS).toEqual({ position: "top-right", richColors: true, theme: "dark" });
  });
});
