// SBaGenX's `.sbgf` function files, read for `-p curve` (dsp/host/sbg/program.ts): parameters,
// one optional `solve` line, and the expressions that drive a drop-like session (beat, carrier,
// amp, mixamp and the soundtrack effects' values), plain or piecewise. As the SBaGenX manual
// defines them (section 2.11.1):
//
// - `param name = number[m|s]` (m minutes, s seconds turned into minutes); `:name=value` in the
//   program's spec overrides it (and sets a solve unknown's first guess).
// - `solve u1,u2,... : lhs1=rhs1 ; lhs2=rhs2 ; ...`: a square system solved once, by Newton's
//   method with a numerical Jacobian.
// - `target = expr`, or piecewise `target<expr = expr` (also <=, >, >=) tried in file order against
//   m, the first that holds winning and the last one the fallback. A target is plain or
//   piecewise, not both.
// - Expressions: numbers, the variables (t, m, D, H, T, U, b0, b1, c0, c1, a0, m0 and the
//   parameters), + - * / ^ (power), unary minus, parentheses, and the functions: the helpers
//   ifelse, step, clamp, lerp, ramp, smoothstep, smootherstep, between, pulse, seg, lt, le, gt, ge,
//   eq, ne, min2, max2, and exp, ln (natural), log (base 10), sqrt, abs, pow, sin, cos, tan, tanh,
//   sinh, cosh, asin, acos, atan, atan2, floor, ceil, round, min, max.
// - Comments: a line starting with #, ; or //, or the rest of a line after " #" or " //".

export const CURVE_TARGETS = [
  "beat", "carrier", "amp", "mixamp", "mixspin_width", "mixspin_hz", "mixspin_amp", "mixpulse_hz", "mixpulse_amp",
  "mixbeat_hz", "mixbeat_amp", "mixam_hz",
] as const;
export type CurveTarget = (typeof CURVE_TARGETS)[number];

type Expr = (vars: Record<string, number>) => number;
type Compare = "<" | "<=" | ">" | ">=";

interface Piece {
  op: Compare;
  bound: Expr;
  value: Expr;
}

export interface CurveFile {
  params: Record<string, number>;
  solve: { unknowns: string[]; equations: [Expr, Expr][] } | null;
  targets: Partial<Record<CurveTarget, Expr | Piece[]>>;
}

const clamp01 = (x: number) => Math.min(1, Math.max(0, x));
const ramp = (x: number, x0: number, x1: number) => (x1 === x0 ? (x >= x1 ? 1 : 0) : clamp01((x - x0) / (x1 - x0)));
const FUNCTIONS: Record<string, (...a: number[]) => number> = {
  ifelse: (c, a, b) => (c !== 0 ? a : b),
  step: (x) => (x >= 0 ? 1 : 0),
  clamp: (x, lo, hi) => (lo > hi ? Math.min(lo, Math.max(hi, x)) : Math.min(hi, Math.max(lo, x))),
  lerp: (a, b, u) => a + (b - a) * u,
  ramp,
  smoothstep: (e0, e1, x) => {
    const u = ramp(x, e0, e1);
    return u * u * (3 - 2 * u);
  },
  smootherstep: (e0, e1, x) => {
    const u = ramp(x, e0, e1);
    return u * u * u * (u * (u * 6 - 15) + 10);
  },
  between: (x, a, b) => (x >= Math.min(a, b) && x <= Math.max(a, b) ? 1 : 0),
  pulse: (x, a, b) => (x >= Math.min(a, b) && x <= Math.max(a, b) ? 1 : 0),
  seg: (x, x0, x1, y0, y1) => y0 + (y1 - y0) * ramp(x, x0, x1),
  lt: (a, b) => (a < b ? 1 : 0),
  le: (a, b) => (a <= b ? 1 : 0),
  gt: (a, b) => (a > b ? 1 : 0),
  ge: (a, b) => (a >= b ? 1 : 0),
  eq: (a, b) => (a === b ? 1 : 0),
  ne: (a, b) => (a !== b ? 1 : 0),
  min2: Math.min,
  max2: Math.max,
  min: Math.min,
  max: Math.max,
  exp: Math.exp,
  ln: Math.log,
  log: Math.log10,
  sqrt: Math.sqrt,
  abs: Math.abs,
  pow: Math.pow,
  sin: Math.sin,
  cos: Math.cos,
  tan: Math.tan,
  tanh: Math.tanh,
  sinh: Math.sinh,
  cosh: Math.cosh,
  asin: Math.asin,
  acos: Math.acos,
  atan: Math.atan,
  atan2: Math.atan2,
  floor: Math.floor,
  ceil: Math.ceil,
  round: Math.round,
};

export class CurveError extends Error {}

/** Parses one expression into a function of the variables; throws CurveError. */
export function parseExpr(text: string): Expr {
  const tokens = text.match(/\d+(?:\.\d*)?(?:e[+-]?\d+)?|\.\d+(?:e[+-]?\d+)?|[A-Za-z_][A-Za-z0-9_]*|\*\*|[-+*/^(),]|\S/gi) ?? [];
  let i = 0;
  const peek = () => tokens[i];
  const next = () => tokens[i++];
  const expect = (t: string) => {
    if (next() !== t) throw new CurveError(`'${text}': expected '${t}'`);
  };
  // sum := product (('+'|'-') product)*; product := unary (('*'|'/') unary)*; unary := '-' unary |
  // power; power := atom ('^' unary)?; atom := number | name | name '(' args ')' | '(' sum ')'
  const sum = (): Expr => {
    let left = product();
    while (peek() === "+" || peek() === "-") {
      const op = next(), a = left, b = product();
      left = op === "+" ? (v) => a(v) + b(v) : (v) => a(v) - b(v);
    }
    return left;
  };
  const product = (): Expr => {
    let left = unary();
    while (peek() === "*" || peek() === "/") {
      const op = next(), a = left, b = unary();
      left = op === "*" ? (v) => a(v) * b(v) : (v) => a(v) / b(v);
    }
    return left;
  };
  const unary = (): Expr => {
    if (peek() === "-") {
      next();
      const a = unary();
      return (v) => -a(v);
    }
    if (peek() === "+") next();
    return power();
  };
  const power = (): Expr => {
    const base = atom();
    if (peek() === "^" || peek() === "**") {
      next();
      const e = unary();
      return (v) => Math.pow(base(v), e(v));
    }
    return base;
  };
  const atom = (): Expr => {
    const t = next();
    if (t === undefined) throw new CurveError(`'${text}': the expression ends too soon`);
    if (t === "(") {
      const e = sum();
      expect(")");
      return e;
    }
    if (/^[\d.]/.test(t)) {
      const x = Number(t);
      if (!Number.isFinite(x)) throw new CurveError(`'${text}': '${t}' is not a number`);
      return () => x;
    }
    if (/^[A-Za-z_]/.test(t)) {
      if (peek() === "(") {
        const fn = FUNCTIONS[t];
        if (!fn) throw new CurveError(`'${text}': unknown function '${t}'`);
        next();
        const args: Expr[] = [];
        if (peek() !== ")") {
          args.push(sum());
          while (peek() === ",") {
            next();
            args.push(sum());
          }
        }
        expect(")");
        return (v) => fn(...args.map((a) => a(v)));
      }
      return (v) => {
        const x = v[t];
        if (x === undefined) throw new CurveError(`'${t}' is not a variable or a param`);
        return x;
      };
    }
    throw new CurveError(`'${text}': unexpected '${t}'`);
  };
  const e = sum();
  if (i < tokens.length) throw new CurveError(`'${text}': unexpected '${tokens[i]}'`);
  return e;
}

/** Reads a `.sbgf` file; throws CurveError naming the line. */
export function parseCurveFile(text: string): CurveFile {
  const file: CurveFile = { params: {}, solve: null, targets: {} };
  const kinds: Partial<Record<CurveTarget, "plain" | "piecewise">> = {};
  text.split(/\r?\n/).forEach((raw, k) => {
    // A comment is a line starting with #, ; or // (a ; inside a solve line separates its
    // equations), or what follows # or // after a space.
    const trimmed = raw.trim();
    if (!trimmed || /^(#|;|\/\/)/.test(trimmed)) return;
    const line = trimmed.replace(/\s(#|\/\/).*$/, "").trim();
    const where = (msg: string) => new CurveError(`line ${k + 1}: ${msg}`);
    try {
      let m: RegExpExecArray | null;
      if ((m = /^param\s+([A-Za-z_]\w*)\s*=\s*(-?(?:\d+(?:\.\d*)?|\.\d+)(?:e[+-]?\d+)?)\s*([ms]?)$/i.exec(line))) {
        file.params[m[1]] = Number(m[2]) / (m[3] === "s" ? 60 : 1);
        return;
      }
      if ((m = /^solve\s+([^:]+):(.*)$/.exec(line))) {
        if (file.solve) throw where("one solve line only");
        const unknowns = m[1].split(",").map((u) => u.trim());
        if (unknowns.some((u) => !/^[A-Za-z_]\w*$/.test(u)) || new Set(unknowns).size !== unknowns.length) throw where("solve's unknowns must be distinct names");
        const equations = m[2].split(";").map((chunk) => {
          const [lhs, rhs, more] = chunk.split("=");
          if (rhs === undefined || more !== undefined) throw where(`'${chunk.trim()}' must be lhs=rhs`);
          return [parseExpr(lhs), parseExpr(rhs)] as [Expr, Expr];
        });
        if (equations.length !== unknowns.length) throw where(`solve needs as many equations as unknowns (${unknowns.length}, not ${equations.length})`);
        file.solve = { unknowns, equations };
        return;
      }
      if ((m = /^([a-z_]+)\s*(<=|>=|<|>)(.+?)=(.+)$/.exec(line)) && (CURVE_TARGETS as readonly string[]).includes(m[1])) {
        const target = m[1] as CurveTarget;
        if (kinds[target] === "plain") throw where(`${target} is given plainly and piecewise`);
        kinds[target] = "piecewise";
        const pieces = (file.targets[target] as Piece[] | undefined) ?? [];
        pieces.push({ op: m[2] as Compare, bound: parseExpr(m[3]), value: parseExpr(m[4]) });
        file.targets[target] = pieces;
        return;
      }
      if ((m = /^([a-z_]+)\s*=(.+)$/.exec(line)) && (CURVE_TARGETS as readonly string[]).includes(m[1])) {
        const target = m[1] as CurveTarget;
        if (kinds[target]) throw where(`${target} is given twice, or plainly and piecewise`);
        kinds[target] = "plain";
        file.targets[target] = parseExpr(m[2]);
        return;
      }
      throw where(`'${line}' is not a param, solve or target line`);
    } catch (err) {
      if (err instanceof CurveError && !err.message.startsWith("line ")) throw where(err.message);
      throw err;
    }
  });
  if (!file.targets.beat) throw new CurveError("a curve file needs a beat line");
  return file;
}

/** Solves the file's system (if any) into `vars`, Newton's method from the current values. */
export function solveCurve(file: CurveFile, vars: Record<string, number>): void {
  if (!file.solve) return;
  const { unknowns, equations } = file.solve;
  const n = unknowns.length;
  for (const u of unknowns) vars[u] ??= 0;
  const residual = () => equations.map(([l, r]) => l(vars) - r(vars));
  for (let iter = 0; iter < 100; iter++) {
    const f = residual();
    if (f.every((x) => Math.abs(x) < 1e-12)) return;
    const J = unknowns.map(() => new Array<number>(n).fill(0));
    unknowns.forEach((u, j) => {
      const x = vars[u];
      const h = 1e-7 * Math.max(1, Math.abs(x));
      vars[u] = x + h;
      const g = residual();
      vars[u] = x;
      for (let i = 0; i < n; i++) J[i][j] = (g[i] - f[i]) / h;
    });
    const dx = gauss(J, f.map((x) => -x));
    if (!dx) throw new CurveError("solve: the system has no single solution");
    unknowns.forEach((u, j) => (vars[u] += dx[j]));
    if (dx.every((d, j) => Math.abs(d) <= 1e-12 * Math.max(1, Math.abs(vars[unknowns[j]])))) return;
  }
  if (residual().some((x) => !(Math.abs(x) < 1e-6))) throw new CurveError("solve: no solution found");
}

function gauss(a: number[][], b: number[]): number[] | null {
  const n = b.length;
  const m = a.map((row, i) => [...row, b[i]]);
  for (let c = 0; c < n; c++) {
    let p = c;
    for (let r = c + 1; r < n; r++) if (Math.abs(m[r][c]) > Math.abs(m[p][c])) p = r;
    if (!(Math.abs(m[p][c]) > 1e-300)) return null;
    [m[c], m[p]] = [m[p], m[c]];
    for (let r = 0; r < n; r++) {
      if (r === c) continue;
      const k = m[r][c] / m[c][c];
      for (let j = c; j <= n; j++) m[r][j] -= k * m[c][j];
    }
  }
  return m.map((row, i) => row[n] / row[i]);
}

/** A target's value at the variables (m is the minute), or undefined when the file does not set it. */
export function evalTarget(file: CurveFile, target: CurveTarget, vars: Record<string, number>): number | undefined {
  const t = file.targets[target];
  if (!t) return undefined;
  if (typeof t === "function") return t(vars);
  const m = vars.m;
  const holds = (p: Piece) => {
    const b = p.bound(vars);
    return p.op === "<" ? m < b : p.op === "<=" ? m <= b : p.op === ">" ? m > b : m >= b;
  };
  return (t.find(holds) ?? t[t.length - 1]).value(vars);
}
