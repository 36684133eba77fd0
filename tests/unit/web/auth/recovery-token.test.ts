// The recovery link's reset token held for the update-password form: given back only for the user
// it was issued to, and gone once dropped.
import { afterEach, describe, expect, it } from "vitest";
import { dropResetToken, holdResetToken, resetTokenFor } from "../../../../web/auth/recovery-token";

afterEach(() => dropResetToken());

describe("recovery token", () => {
  it("answers the held token for its own user only", () => {
    expect(resetTokenFor("u1")).toBeNull();
    holdResetToken("u1", "tok");
    expect(resetTokenFor("u1")).toBe("tok");
    expect(resetTokenFor("u2")).toBeNull();
    expect(resetTokenFor(null)).toBeNull();
    expect(resetTokenFor(undefined)).toBeNull();
  });

  it("a newer token replaces the older; dropping forgets it", () => {
    holdResetToken("u1", "old");
    holdResetToken("u1", "new");
    expect(resetTokenFor("u1")).toBe("new");
    dropResetToken();
    expect(resetTokenFor("u1")).toBeNull();
  });
});
