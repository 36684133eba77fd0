// The bench's own HTTP client for preparing data through the real API (bench/api.ts): JSON
// requests over node:http from a chosen loopback source address. Linux routes all of 127.0.0.0/8
// to the loopback device, so each simulated client can sign up from its own address and the
// product's per-address limits (RATE_RULES.registerPerIp, loginPerIp) stay exactly as they are.

import { request } from "node:http";

export interface ApiAnswer {
  status: number;
  body: Record<string, unknown>;
}

/** The i-th simulated client's address: 127.0.1.1, 127.0.1.2, ... (never 127.0.0.1 itself). */
export function clientAddress(i: number): string {
  return `127.0.${1 + Math.floor(i / 250)}.${1 + (i % 250)}`;
}

/** One JSON request to `base` (http://127.0.0.1:port) from `from`; rejects on a network error. */
export function callApi(
  base: string,
  method: string,
  path: string,
  opts: { body?: unknown; token?: string; from?: string } = {},
): Promise<ApiAnswer> {
  const url = new URL(path, base);
  const payload = opts.body === undefined ? undefined : JSON.stringify(opts.body);
  const headers: Record<string, string> = {};
  if (payload !== undefined) headers["content-type"] = "application/json";
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  return new Promise((resolve, reject) => {
    const req = request(
      { host: url.hostname, port: url.port, path: url.pathname + url.search, method, headers, localAddress: opts.from, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => {
          const text = Buffer.concat(chunks).toString("utf8");
          let body: Record<string, unknown>;
          try {
            body = text ? (JSON.parse(text) as Record<string, unknown>) : {};
          } catch {
            body = { text };
          }
          resolve({ status: res.statusCode ?? 0, body });
        });
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end(payload);
  });
}

/** callApi that throws unless the answer has the expected status. */
export async function expectApi(
  expected: number,
  base: string,
  method: string,
  path: string,
  opts: { body?: unknown; token?: string; from?: string } = {},
): Promise<Record<string, unknown>> {
  const answer = await callApi(base, method, path, opts);
  if (answer.status !== expected) {
    throw new Error(`${method} ${path} answered ${answer.status} (expected ${expected}): ${JSON.stringify(answer.body).slice(0, 300)}`);
  }
  return answer.body;
}

/** Runs `task` for 0..count-1, at most `parallel` at a time, in order of start. */
export async function inPool<T>(count: number, parallel: number, task: (i: number) => Promise<T>): Promise<T[]> {
  const out = new Array<T>(count);
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const i = next++;
      out[i] = await task(i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(parallel, count) }, worker));
  return out;
}
