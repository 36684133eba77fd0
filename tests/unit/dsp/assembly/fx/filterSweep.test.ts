// Filter Sweep: a low-pass starts closed and slowly opens up to the set cutoff.

import { describe, expect, it } from "vitest";
import { FS, db } from "../helpers";
import { transfer, wetAndDry } from "./helpers";

describe("filterSweep", () => {
  it("reaches the set cutoff at the top of the sweep and starts closed", () => {
    const secs = 4.1;
    const { wet, dry } = wetAndDry(100, "filterSweep", { value: 2 }, secs);
    const size = 4096;
    const [pass, cut, stop] = transfer(wet, dry, Math.round(4 * FS) - size / 2, size, [500, 2000, 4000]);
    expect(Math.abs(db(pass))).toBeLessThan(1.5);
    expect(Math.abs(db(cut) - db(0.9))).toBeLessThan(2); // RBJ low-pass: Q at the cutoff
    expect(db(stop)).toBeLessThan(-9);
    const [early] = transfer(wet, dry, 2400, size, [1000]);
    expect(db(early), "closed at the start (cutoff 62.5 Hz)").toBeLessThan(-40);
  });
});
