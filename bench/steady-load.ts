// An open-loop load at a steady rate: request i is due at start + i / rate, is sent when due (or
// as soon as one of `connections` keep-alive sockets is free), and its latency is counted from the
// moment it was due, so a server that falls behind pays for the queue it causes.
//
// Why not autocannon's overallRate: it lets each connection send its share of a second back to
// back as soon as the second starts and then pause (a burst of the whole second's requests, not a
// rate), and its coordinated-omission correction assumes a 1 ms interval (ceil(1 / rate) of a
// per-connection rate in requests per second), which adds a made-up sample for every millisecond
// of every slow answer. Both made the p99 of the "1,000 writes a second" row meaningless.
import http from "node:http";
import type { LoadFigures } from "./api-rows";

export interface SteadyRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
}

export interface SteadyLoadOptions {
  url: string;
  /** Requests per second offered. */
  rate: number;
  /** Requests in all (the run lasts amount / rate seconds plus the last answers). */
  amount: number;
  connections: number;
  /** The i-th request. */
  request: (i: number) => SteadyRequest;
  /** An answer slower than this counts as a timeout (an error). */
  timeoutMs?: number;
}

export async function steadyLoad(opts: SteadyLoadOptions): Promise<LoadFigures> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: opts.connections });
  const target = new URL(opts.url);
  const latencies: number[] = [];
  let ok = 0;
  let non2xx = 0;
  let errors = 0;
  let timeouts = 0;
  const send = (i: number, due: number) =>
    new Promise<void>((done) => {
      const r = opts.request(i);
      const req = http.request(
        { host: target.hostname, port: target.port, method: r.method, path: r.path, headers: r.headers, agent, timeout: opts.timeoutMs ?? 10_000 },
        (res) => {
          res.resume();
          res.on("end", () => {
            latencies.push(performance.now() - due);
            if (res.statusCode !== undefined && res.statusCode >= 200 && res.statusCode < 300) ok++;
            else non2xx++;
            done();
          });
        },
      );
      req.on("timeout", () => {
        timeouts++;
        req.destroy(new Error("timeout"));
      });
      req.on("error", () => {
        errors++;
        done();
      });
      req.end(r.body);
    });

  const intervalMs = 1000 / opts.rate;
  const start = performance.now();
  const pending: Promise<void>[] = [];
  let next = 0;
  while (next < opts.amount) {
    const now = performance.now();
    // Everything due by now goes out (a late timer catches up; nothing is skipped).
    while (next < opts.amount && start + next * intervalMs <= now) {
      pending.push(send(next, start + next * intervalMs));
      next++;
    }
    if (next < opts.amount) await new Promise((r) => setTimeout(r, Math.max(0, start + next * intervalMs - performance.now())));
  }
  await Promise.all(pending);
  const seconds = (performance.now() - start) / 1000;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const at = (q: number) => (latencies.length === 0 ? 0 : latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]);
  return {
    requestsPerSecond: ok / seconds,
    p50Ms: Math.round(at(0.5) * 10) / 10,
    p99Ms: Math.round(at(0.99) * 10) / 10,
    requests: ok + non2xx,
    errors, // timeouts included (a timed-out request ends in 'error')
    timeouts,
    non2xx,
    seconds,
  };
}
