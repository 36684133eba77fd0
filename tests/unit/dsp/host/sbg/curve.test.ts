// SBaGenX's -p curve: the .sbgf reader (expressions, params with units, piecewise targets, solve)
// and the program it drives, checked against the manual's own example files: each point of the
// session plays the beat the file's expression gives at that minute.

import { describe, expect, it } from "vitest";
import { CurveError, evalTarget, parseCurveFile, parseExpr, solveCurve } from "../../../../../dsp/host/sbg/curve";
import { readSbgVoices } from "../../../../../dsp/host/sbg/index";

const SIGMOID_LIKE = `param l = 0.125
param h = 0
beat = b0 + (b1-b0) * (0.5 + 0.5*tanh(l*(m-D/2-h)))
carrier = c0 + (c1-c0) * ramp(m,0,T)
amp = a0 * (1 - 0.4*ramp(m,0,D))
`;
const PIECEWISE = `# the manual's piecewise demo, in seconds
param p1 = 480s
param p2 = 1080s
beat<p1 = seg(m,0,p1,b0,6)
beat<p2 = seg(m,p1,p2,6,3)
beat>=p2 = seg(m,p2,D,3,b1)
`;
const SOLVED = `# Target model: beat(m) = A*exp(-l*m) + C
param l = 0.15
solve A,C : A*exp(-l*0)+C=b0 ; A*exp(-l*D)+C=b1
beat = A*exp(-l*m) + C
`;
const THREE = `param l = 0.06
param k = 0.20
param s0 = 0
solve A,B,C : A+B+C=b0 ; A*exp(-l*D)+B*exp(-k*D)+C=b1 ; -l*A-k*B=s0
beat = A*exp(-l*m) + B*exp(-k*m) + C
`;
const MIXFX = `beat = b0*exp(ln(b1/b0)*(m/D))
mixspin_width = 300 + 60*ramp(m,0,T)
mixspin_amp = 35 + 15*ramp(m,0,T)
mixamp = m0 * (1 - 0.3*ramp(m,0,T))
`;

/** The session of `-p curve f.sbgf SPEC` with `files` beside it; its steps' voices. */
function program(spec: string, files: Record<string, string>) {
  const r = readSbgVoices(`-p curve ${spec}\n`, { readFile: (n) => files[n] ?? null });
  if (!r.ok) throw new Error(JSON.stringify(r.errors));
  return r.session.timeline!.steps.filter((s) => s.voices && s.voices.length > 0);
}

describe(".sbgf expressions", () => {
  it("reads numbers, variables, + - * / ^, unary minus, parentheses and the manual's helpers", () => {
    const v = { m: 10, D: 30, b0: 10, b1: 2.5 };
    expect(parseExpr("1 + 2 * 3 ^ 2")(v)).toBe(19);
    expect(parseExpr("-(2 - 5) * -2")(v)).toBe(-6);
    expect(parseExpr("lerp(10,20,0.25) + clamp(12,0,10) + ramp(10,5,15)")(v)).toBe(12.5 + 10 + 0.5);
    expect(parseExpr("ifelse(lt(m,15), b0, b1)")(v)).toBe(10);
    expect(parseExpr("seg(m,0,D,b0,b1)")(v)).toBeCloseTo(7.5, 12);
    expect(parseExpr("ln(exp(2)) + log(1000)")(v)).toBeCloseTo(5, 12);
    expect(parseExpr("smoothstep(0,1,0.5) + smootherstep(0,1,0.5)")(v)).toBeCloseTo(1, 12);
    expect(() => parseExpr("1 +")).toThrow(CurveError);
    expect(() => parseExpr("nosuch(1)")).toThrow("unknown function 'nosuch'");
  });

  it("reads params with units, refuses a target given both ways, needs a beat", () => {
    expect(parseCurveFile(PIECEWISE).params).toEqual({ p1: 8, p2: 18 });
    expect(() => parseCurveFile("beat = 1\nbeat<5 = 2\n")).toThrow("line 2: beat is given plainly and piecewise");
    expect(() => parseCurveFile("carrier = 200\n")).toThrow("a curve file needs a beat line");
    expect(() => parseCurveFile("beat = 1\nsolve A,C : A+C=1\n")).toThrow("line 2: solve needs as many equations as unknowns (2, not 1)");
  });

  it("piecewise: the first condition that holds, the last one otherwise", () => {
    const f = parseCurveFile(PIECEWISE);
    const at = (m: number) => evalTarget(f, "beat", { ...f.params, m, D: 30, b0: 10, b1: 2.5 });
    expect(at(4)).toBeCloseTo(8, 12);
    expect(at(12)).toBeCloseTo(4.8, 12);
    expect(at(24)).toBeCloseTo(3 + (2.5 - 3) * 0.5, 12);
  });

  it("solve finds the constants: two unknowns and the three-unknown example meet their conditions", () => {
    const f = parseCurveFile(SOLVED);
    const vars: Record<string, number> = { ...f.params, D: 30, b0: 10, b1: 2.5, m: 0 };
    solveCurve(f, vars);
    expect(evalTarget(f, "beat", { ...vars, m: 0 })).toBeCloseTo(10, 9);
    expect(evalTarget(f, "beat", { ...vars, m: 30 })).toBeCloseTo(2.5, 9);
    const g = parseCurveFile(THREE);
    const w: Record<string, number> = { ...g.params, D: 30, b0: 10, b1: 2.5, m: 0 };
    solveCurve(g, w);
    expect(w.A + w.B + w.C).toBeCloseTo(10, 9);
    expect(-w.l * w.A - w.k * w.B).toBeCloseTo(0, 9);
  });
});

describe("-p curve", () => {
  it("plays the file's beat at every point: with s, every 20 s of the drop, slid between", () => {
    const steps = program("sig.sbgf 00ls", { "sig.sbgf": SIGMOID_LIKE });
    const expected = parseExpr("b0 + (b1-b0) * (0.5 + 0.5*tanh(0.125*(m-30/2)))");
    const held = steps.filter((s) => (s.voices![0] as { amp: number }).amp > 0);
    for (const s of held.slice(1, 40)) {
      const m = (s.at - 5) / 60;
      expect((s.voices![0] as { beat: number }).beat).toBeCloseTo(expected({ m, b0: 10, b1: 0.3 }), 3);
    }
    // amp follows the file (a0 = 1 falling by 40 % over the drop); the carrier falls to c1 over T.
    const last = held[held.length - 1].voices![0] as { amp: number; carrier: number };
    expect(last.amp).toBeCloseTo(0.6, 3);
    expect(last.carrier).toBeCloseTo(200, 3);
  });

  it("solves the file's constants before playing; :name=value overrides a param", () => {
    const steps = program("exp.sbgf t20,0,0 00ds:l=0.3", { "exp.sbgf": SOLVED });
    const beats = steps.filter((s) => (s.voices![0] as { amp: number }).amp > 0).map((s) => (s.voices![0] as { beat: number }).beat);
    expect(beats[0]).toBeCloseTo(10, 6);
    expect(beats[beats.length - 1]).toBeCloseTo(2.5, 3);
  });

  it("drives the soundtrack's level and effects from the file", () => {
    const steps = program("fx.sbgf 00ls+ mix/80 mixspin:300+3/35", { "fx.sbgf": MIXFX });
    const first = steps[1].voices!, last = steps[steps.length - 2].voices!;
    expect(first[1]).toMatchObject({ kind: "mix", amp: 80 });
    expect(first[2]).toMatchObject({ kind: "mixspin", width: 300, amp: 35 });
    expect(last[1]).toMatchObject({ kind: "mix" });
    expect((last[1] as { amp: number }).amp).toBeCloseTo(56, 0);
    expect((last[2] as { width: number }).width).toBeCloseTo(360, 0);
  });

  it("a missing or broken file is an error naming it", () => {
    const missing = readSbgVoices("-p curve gone.sbgf 00ls\n", { readFile: () => null });
    expect(!missing.ok && missing.errors[0].message).toMatch(/^-p curve: gone.sbgf is missing: give it with the schedule/);
    const broken = readSbgVoices("-p curve bad.sbgf 00ls\n", { readFile: () => "beat = 1 +\n" });
    expect(!broken.ok && broken.errors[0].message).toContain("bad.sbgf line 1:");
  });
});
