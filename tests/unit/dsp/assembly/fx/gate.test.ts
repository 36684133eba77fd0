// Gate: a hard rhythmic gate (edges of a few ms, 50 % duty) at the set rate, still without clicks.

import { describe, expect, it } from "vitest";
import { expectPulses } from "./helpers";

describe("gate", () => {
  it("gate chops hard (edges of a few ms) at the set rate, still without a step beyond the tone's own", () => {
    const rise = expectPulses("gate", 4);
    expect(rise).toBeLessThanOrEqual(3);
  });
});
