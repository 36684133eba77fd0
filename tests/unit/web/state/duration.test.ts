// The duration box's formatter and parser (spec/studio.md section 5): typed colons separate
// fields, the value is read from the right like a timer, digits typed without colons shift in
// from the right, at most 8 characters, minutes and seconds capped at 59; the store clamps the
// committed value to 30 s and the user's maximum.

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { MAX_DURATION_SECONDS, MAX_DURATION_UNLIMITED_SECONDS, MIN_DURATION_SECONDS } from "../../../../dsp/host/model/limits";
import { clampDuration, createStudioStore } from "../../../../web/state/studio-store";
import { DURATION_MAX_CHARS, durationHelp, formatDuration, formatDurationInput, parseDuration } from "../../../../web/state/duration";
import { durationWords, MAX_DURATION_TEXT, PLANS } from "../../../../api/rules/plans";
import { PLAN_COMPARISON_ROWS } from "../../../../web/payments/PlanComparison";

/** What the box shows after each keystroke when `keys` are typed into an empty box one by one
 *  (a keystroke that would make the text longer than maxLength is refused, as the browser does). */
function typeKeys(keys: string): string[] {
  const shown: string[] = [];
  let box = "";
  for (const key of keys) {
    if ((box + key).length <= DURATION_MAX_CHARS) box = formatDurationInput(box + key);
    shown.push(box);
  }
  return shown;
}

const commit = (typed: string, max = MAX_DURATION_SECONDS) => clampDuration(parseDuration(formatDurationInput(typed)), max);

describe("typing into the duration box", () => {
  it("keeps typed colons: 1:30 stays 1:30, 1:00:00 stays 1:00:00", () => {
    expect(typeKeys("1:30")).toEqual(["1", "1:", "1:3", "1:30"]);
    expect(typeKeys("1:00:00").at(-1)).toBe("1:00:00");
    expect(typeKeys("12:3")).toEqual(["1", "12", "12:", "12:3"]);
  });

  it("shifts digits typed without colons in from the right", () => {
    expect(typeKeys("130")).toEqual(["1", "13", "1:30"]);
    expect(typeKeys("1300")).toEqual(["1", "13", "1:30", "13:00"]);
    expect(typeKeys("123456")).toEqual(["1", "12", "1:23", "12:34", "1:23:45", "12:34:56"]);
    expect(typeKeys("1234567").at(-1)).toBe("12:34:56"); // full: the 7th digit is refused
  });

  it("a digit typed after a typed colon shifts through it like a timer", () => {
    expect(typeKeys("1:300").at(-1)).toBe("13:00");
  });

  it.each([
    ["12a:3b4", "12:34"],
    ["1234", "12:34"],
    ["1234567", "12:34:56"],
    ["00:99:99", "00:99:99"],
    ["1::30", "1:30"],
    ["", ""],
  ])("formatDurationInput(%j) shows %j", (typed, shown) => {
    expect(formatDurationInput(typed)).toBe(shown);
  });
});

describe("reading the duration", () => {
  it.each([
    ["1:30", 90],
    ["130", 90],
    ["1:00:00", 3600],
    ["01:00:00", 3600],
    ["90", 59],
    ["1:90", 119],
    ["00:99:99", 3599],
    ["12:3", 723],
    ["2:00:00", 7200],
  ])("parseDuration(%j) is %d s", (text, seconds) => {
    expect(parseDuration(text)).toBe(seconds);
  });

  it("nothing typed is not a number (the box keeps its value)", () => {
    expect(parseDuration("")).toBeNaN();
    expect(parseDuration("::")).toBeNaN();
  });

  it("commits clamped to 30 s and the user's maximum", () => {
    expect(commit("1:30")).toBe(90);
    expect(commit("1:00:00")).toBe(MAX_DURATION_SECONDS);
    expect(commit("2:00:00")).toBe(MAX_DURATION_SECONDS);
    expect(commit("2:00:00", MAX_DURATION_UNLIMITED_SECONDS)).toBe(7200);
    expect(commit("13:00:00", MAX_DURATION_UNLIMITED_SECONDS)).toBe(MAX_DURATION_UNLIMITED_SECONDS);
    expect(commit("90")).toBe(59);
    expect(commit("10")).toBe(MIN_DURATION_SECONDS);
    expect(formatDuration(commit("1:30"))).toBe("00:01:30");
    expect(formatDuration(commit("1:00:00"))).toBe("01:00:00");
  });

  it("the store clamps the duration", () => {
    const store = createStudioStore();
    store.getState().setDuration(5);
    expect(store.getState().duration).toBe(MIN_DURATION_SECONDS);
    store.getState().setDuration(99999);
    expect(store.getState().duration).toBe(MAX_DURATION_SECONDS);
  });
});

describe("duration properties", () => {
  const digit = fc.constantFrom(..."0123456789");
  const field = fc.string({ unit: digit, minLength: 1, maxLength: 2 });

  it("whatever is typed, the box holds at most 8 characters of digits and at most two colons, and formatting again changes nothing", () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom(..."0123456789::a "), maxLength: 12 }), (typed) => {
        const shown = formatDurationInput(typed);
        expect(shown.length).toBeLessThanOrEqual(DURATION_MAX_CHARS);
        expect(shown).toMatch(/^[0-9]*(:[0-9]*){0,2}$/);
        expect(formatDurationInput(shown)).toBe(shown);
      }),
    );
  });

  it("digits typed one by one keep their order and are grouped in twos from the right", () => {
    fc.assert(
      fc.property(fc.string({ unit: digit, minLength: 1, maxLength: 6 }), (digits) => {
        const shown = typeKeys(digits).at(-1)!;
        expect(shown.replaceAll(":", "")).toBe(digits);
        expect(shown.split(":").reverse().slice(0, -1).every((f) => f.length === 2)).toBe(true);
      }),
    );
  });

  it("typed fields of one or two digits are kept and read from the right (minutes and seconds capped at 59)", () => {
    fc.assert(
      fc.property(fc.array(field, { minLength: 1, maxLength: 3 }), (fields) => {
        const typed = fields.join(":");
        expect(formatDurationInput(typed)).toBe(typed);
        const [s, m = 0, h = 0] = [...fields].reverse().map(Number);
        expect(parseDuration(typed)).toBe(h * 3600 + Math.min(m, 59) * 60 + Math.min(s, 59));
      }),
    );
  });

  it("a committed value shows as HH:MM:SS that reads back to the same seconds", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: MAX_DURATION_UNLIMITED_SECONDS }), (seconds) => {
        const shown = formatDuration(seconds);
        expect(shown).toMatch(/^\d\d:[0-5]\d:[0-5]\d$/);
        expect(parseDuration(shown)).toBe(seconds);
      }),
    );
  });
});

describe("one wording of the limit: 1 hour (MAX_DURATION_SECONDS)", () => {
  it("in words", () => {
    expect(MAX_DURATION_SECONDS).toBe(3600);
    expect(MAX_DURATION_TEXT).toBe("1 hour");
    expect([durationWords(43200), durationWords(600), durationWords(30), durationWords(60)]).toEqual(["12 hours", "10 minutes", "30 seconds", "1 minute"]);
  });

  it("beside the box, on the plan cards and in the comparison", () => {
    expect(durationHelp(MAX_DURATION_SECONDS)).toBe("Minimum 30 seconds, maximum 1 hour (01:00:00).");
    expect(durationHelp(MAX_DURATION_UNLIMITED_SECONDS)).toBe("Minimum 30 seconds, maximum 12 hours (12:00:00).");
    expect(PLANS.oneDay.limits).toEqual(["10 exports, max 1 hour each"]);
    expect(PLANS.monthly.limits).toEqual(["100 exports per month, up to 1 hour each"]);
    expect(PLANS.commercial.limits).toEqual(["200 exports per month, up to 12 hours each"]);
    expect(PLAN_COMPARISON_ROWS.find(([feature]) => feature === "Playback and export duration")).toEqual([
      "Playback and export duration",
      "Up to 1 hour",
      "Up to 1 hour; 12 hours with the Commercial License",
    ]);
  });
});
