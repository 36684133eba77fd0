// Password hashing with the production argon2id parameters (the other tests inject a cheaper
// hasher), the stand-in verify of a sign-in for an unknown e-mail, and the spec's common-password
// rule.
import { describe, expect, it } from "vitest";
import { isCommonPassword } from "../../../../api/rules/passwords";
import { createArgon2Hasher, type PasswordHasher, PRODUCTION_ARGON2, unknownAccountCheck } from "../../../../api/services/passwords";
import { countingHasher, fastHasher } from "../helpers";

describe("argon2id hasher", () => {
  it("production parameters meet the floor: m >= 19456 KiB, t >= 2, p = 1", () => {
    expect(PRODUCTION_ARGON2.memoryCost).toBeGreaterThanOrEqual(19456);
    expect(PRODUCTION_ARGON2.timeCost).toBeGreaterThanOrEqual(2);
    expect(PRODUCTION_ARGON2.parallelism).toBe(1);
  });

  it("the default hasher writes those parameters into the PHC string and verifies exactly", async () => {
    const hasher = createArgon2Hasher();
    const hash = await hasher.hash("Tr0ub4dor & 3");
    const m = /^\$argon2id\$v=19\$m=(\d+),t=(\d+),p=(\d+)\$/.exec(hash);
    expect(m).not.toBeNull();
    expect(Number(m![1])).toBe(PRODUCTION_ARGON2.memoryCost);
    expect(Number(m![2])).toBe(PRODUCTION_ARGON2.timeCost);
    expect(Number(m![3])).toBe(1);
    expect(await hasher.verify(hash, "Tr0ub4dor & 3")).toBe(true);
    expect(await hasher.verify(hash, "Tr0ub4dor & 3 ")).toBe(false);
    expect(await hasher.verify(hash, "tr0ub4dor & 3")).toBe(false);
  });

  it("salts: the same password hashes differently; a malformed hash verifies false", async () => {
    const hasher = createArgon2Hasher({ memoryCost: 1024, timeCost: 1, parallelism: 1 });
    expect(await hasher.hash("same")).not.toBe(await hasher.hash("same"));
    expect(await hasher.verify("not a hash", "same")).toBe(false);
  });
});

describe("unknownAccountCheck", () => {
  it("verifies against a hash the production hasher made, with its parameters, made once", async () => {
    const { hasher, calls } = countingHasher(createArgon2Hasher());
    const check = unknownAccountCheck(hasher);
    await check("first guess");
    await check("second guess");
    expect(calls.hash).toHaveLength(1);
    expect(calls.verify.map((v) => v.password)).toEqual(["first guess", "second guess"]);
    const prefix = `$argon2id$v=19$m=${PRODUCTION_ARGON2.memoryCost},t=${PRODUCTION_ARGON2.timeCost},p=${PRODUCTION_ARGON2.parallelism}$`;
    expect(calls.verify[0].storedHash.startsWith(prefix)).toBe(true);
  });

  it("never throws: a failed hash is tried again on the next call", async () => {
    let fail = true;
    const flaky: PasswordHasher = {
      hash: async (p) => {
        if (fail) throw new Error("out of memory");
        return fastHasher.hash(p);
      },
      verify: (h, p) => fastHasher.verify(h, p),
    };
    const { hasher, calls } = countingHasher(flaky);
    const check = unknownAccountCheck(hasher);
    await expect(check("x")).resolves.toBeUndefined();
    expect(calls.verify).toHaveLength(0);
    fail = false;
    await check("y");
    expect(calls.hash).toHaveLength(2);
    expect(calls.verify.map((v) => v.password)).toEqual(["y"]);
  });
});

describe("isCommonPassword", () => {
  it.each(["123456", "1234567890", "password", "PassWord1", "qwerty!", "QWERTY", "abc123xyz", "ABC123", "111111", "000000z"])(
    "%s is common",
    (pw) => expect(isCommonPassword(pw)).toBe(true),
  );
  it.each(["12345", "my password", "xqwerty", "abc12", "11111", "correct horse"])("%s is fine", (pw) =>
    expect(isCommonPassword(pw)).toBe(false),
  );
});

describe("the common-password list", () => {
  it("holds at least 10,000 passwords and refuses the ones the prefix rule lets through", async () => {
    const { commonPasswordCount, isTooCommon } = await import("../../../../api/services/common-passwords");
    expect(commonPasswordCount()).toBeGreaterThanOrEqual(10_000);
    for (const p of ["passw0rd", "iloveyou", "admin123", "ILoveYou", "trustno1", "letmein"]) {
      expect(isCommonPassword(p)).toBe(false);
      expect(isTooCommon(p)).toBe(true);
    }
    expect(isTooCommon("123456789")).toBe(true); // the spec's prefix rule still holds
    expect(isTooCommon("a lantern under the old bridge")).toBe(false);
  });
});
