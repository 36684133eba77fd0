// The plans every screen shows (spec/accounts.md sections 3 and 9): the one catalogue with the
// server's price ids merged in by key, in catalogue order, with the same prices everywhere.

import { describe, expect, it } from "vitest";
import { periodLabel, withPriceIds } from "../../../../web/payments/plans";

describe("plans with price ids", () => {
  it("catalogue order and prices: One Day Pass $4.44, Monthly Personal $22, Commercial License $191", () => {
    const plans = withPriceIds(null);
    expect(plans.map((p) => [p.key, p.name, p.priceLabel, p.mode, p.priceId])).toEqual([
      ["oneDay", "One Day Pass", "$4.44", "payment", null],
      ["monthly", "Monthly Personal", "$22", "subscription", null],
      ["commercial", "Commercial License", "$191", "subscription", null],
    ]);
  });

  it("takes each plan's price id from the server by key; the server's texts are not used", () => {
    const plans = withPriceIds([
      { key: "commercial", priceId: "price_c" },
      { key: "monthly", priceId: "price_m", name: "Something else" } as never,
    ]);
    expect(plans.map((p) => p.priceId)).toEqual([null, "price_m", "price_c"]);
    expect(plans[1].name).toBe("Monthly Personal");
  });

  it("period labels", () => {
    expect(periodLabel("one-time")).toBe("one-time");
    expect(periodLabel("month")).toBe("per month");
    expect(periodLabel("per month")).toBe("per month");
  });
});
