// bench/steady-load.ts against a local server that answers after a fixed delay: it offers the rate
// it is asked for, evenly, counts every answer, and counts latency from when each request was due,
// so a server (here: one connection) that cannot keep up shows its queue in the p99.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, expect, it } from "vitest";
import { steadyLoad } from "../../../bench/steady-load";

let server: http.Server | null = null;
afterEach(() => new Promise<void>((done) => (server ? server.close(() => done()) : done())));

async function slowServer(delayMs: number, status = 200, answer: (res: http.ServerResponse) => void = (res) => res.writeHead(status).end("ok")): Promise<{ url: string; arrivals: number[]; bodies: string[] }> {
  const arrivals: number[] = [];
  const bodies: string[] = [];
  server = http.createServer((req, res) => {
    arrivals.push(performance.now());
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (d: string) => (body += d));
    req.on("end", () => bodies.push(body));
    setTimeout(() => answer(res), delayMs);
  });
  await new Promise<void>((ok) => server!.listen(0, "127.0.0.1", ok));
  return { url: `http://127.0.0.1:${(server!.address() as AddressInfo).port}`, arrivals, bodies };
}

const request = () => ({ method: "POST", path: "/", headers: { "content-type": "application/json" }, body: "{}" });

it("offers the rate evenly and answers with the server's latency when it keeps up", async () => {
  const { url, arrivals } = await slowServer(5);
  const f = await steadyLoad({ url, rate: 200, amount: 100, connections: 10, request });
  expect(f.requests).toBe(100);
  expect(f.errors + f.non2xx).toBe(0);
  expect(f.requestsPerSecond).toBeGreaterThan(170);
  expect(f.requestsPerSecond).toBeLessThan(210);
  expect(f.p50Ms).toBeGreaterThanOrEqual(5);
  expect(f.p50Ms).toBeLessThan(40);
  // Evenly spaced: no second holds more than its share plus a little (no burst at its start).
  const gaps = arrivals.slice(1).map((t, i) => t - arrivals[i]);
  expect(gaps.filter((g) => g < 1).length).toBeLessThan(20);
});

it("counts the queue from each request's due time when the server cannot keep up", async () => {
  const { url } = await slowServer(20); // one connection: at most 50 answers a second
  const f = await steadyLoad({ url, rate: 100, amount: 50, connections: 1, request });
  expect(f.requests).toBe(50);
  // The last request was due at 0.49 s and answered near 1 s: about 500 ms late.
  expect(f.p99Ms).toBeGreaterThan(300);
  expect(f.requestsPerSecond).toBeLessThan(60);
});

it("reports non-2xx answers and refused connections", async () => {
  const { url } = await slowServer(1, 503);
  const f = await steadyLoad({ url, rate: 200, amount: 20, connections: 5, request });
  expect(f.non2xx).toBe(20);
  expect(f.requestsPerSecond).toBe(0);
  const refused = await steadyLoad({ url: "http://127.0.0.1:1", rate: 200, amount: 5, connections: 5, request });
  expect(refused.errors).toBe(5);
});

it("reads answers of every framing (chunked, sized, closed after) and sends each body whole", async () => {
  let n = 0;
  const { url, bodies } = await slowServer(1, 200, (res) => {
    const k = n++ % 3;
    if (k === 0) res.writeHead(201).end("chunked"); // no length: chunked
    else if (k === 1) res.writeHead(200, { "content-length": "5" }).end("sized");
    else res.writeHead(200, { connection: "close", "content-length": "6" }).end("closed");
  });
  const body = JSON.stringify({ name: "Äbend ♪", pad: "x".repeat(3000) });
  const f = await steadyLoad({ url, rate: 300, amount: 60, connections: 4, request: () => ({ method: "POST", path: "/x", headers: { "content-type": "application/json" }, body }) });
  expect(f.requests).toBe(60);
  expect(f.errors + f.non2xx).toBe(0);
  expect(bodies).toHaveLength(60);
  expect(new Set(bodies)).toEqual(new Set([body]));
});

it("counts an answer that never comes as a timeout, and goes on with the next requests", async () => {
  let n = 0;
  const { url } = await slowServer(0, 200, (res) => {
    if (n++ !== 0) res.writeHead(200).end("ok"); // the first request is never answered
  });
  const f = await steadyLoad({ url, rate: 100, amount: 10, connections: 2, request, timeoutMs: 300 });
  expect(f.timeouts).toBe(1);
  expect(f.errors).toBe(1);
  expect(f.requests).toBe(9);
  expect(f.non2xx).toBe(0);
});
