// An open-loop load at a steady rate: request i is due at start + i / rate, is sent when due (or
// as soon as one of `connections` keep-alive sockets is free), and its latency is counted from the
// moment it was due, so a server that falls behind pays for the queue it causes.
//
// Why not autocannon's overallRate: it lets each connection send its share of a second back to
// back as soon as the second starts and then pause (a burst of the whole second's requests, not a
// rate), and its coordinated-omission correction assumes a 1 ms interval (ceil(1 / rate) of a
// per-connection rate in requests per second), which adds a made-up sample for every millisecond
// of every slow answer. Both made the p99 of the "1,000 writes a second" row meaningless.
//
// Why not node:http's client: the generator shares this machine's two cores with the server and
// PostgreSQL, and http.request spent about 0.36 ms of CPU per request (its agent, an
// IncomingMessage stream per answer, a timer per request), a third of a core at 1,000 requests a
// second taken from the server it measures. Here each connection is a plain socket that writes the
// request's bytes and reads the answer with http-parser-js (the parser autocannon uses), and one
// timer checks every request in flight for its timeout.
import net from "node:net";
import { HTTPParser } from "http-parser-js";
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

/** The bytes of one HTTP/1.1 request (keep-alive, the default): its Host, its headers and, for a
 *  body, a Content-Length unless given. */
export function requestText(r: SteadyRequest, host: string): string {
  let text = `${r.method} ${r.path} HTTP/1.1\r\nhost: ${host}\r\n`;
  let length = false;
  for (const [name, value] of Object.entries(r.headers)) {
    if (/[\r\n]/.test(name + value)) throw new Error(`header ${name} holds a line break`);
    if (name.toLowerCase() === "content-length") length = true;
    text += `${name}: ${value}\r\n`;
  }
  if (r.body !== undefined && !length) text += `content-length: ${Buffer.byteLength(r.body)}\r\n`;
  return `${text}\r\n${r.body ?? ""}`;
}

interface InFlight {
  due: number;
  sentAt: number;
  timedOut: boolean;
}

/** One keep-alive connection: one request at a time, its answer read by an HTTP parser. */
class Connection {
  readonly socket: net.Socket;
  readonly #parser = new HTTPParser(HTTPParser.RESPONSE);
  current: InFlight | null = null;
  #status = 0;
  #keepAlive = true;
  #closed = false;

  constructor(port: number, host: string, answered: (c: Connection, f: InFlight, status: number, keepAlive: boolean) => void, lost: (c: Connection, f: InFlight | null) => void) {
    this.socket = net.connect(port, host);
    this.socket.setNoDelay(true);
    // Either form of the parser's callback (the info object, or its fields as arguments).
    this.#parser[HTTPParser.kOnHeadersComplete] = (info: { statusCode: number; shouldKeepAlive: boolean } | number, ...rest: unknown[]) => {
      if (typeof info === "object") {
        this.#status = info.statusCode;
        this.#keepAlive = info.shouldKeepAlive;
      } else {
        this.#status = rest[4] as number;
        this.#keepAlive = rest[7] as boolean;
      }
    };
    this.#parser[HTTPParser.kOnMessageComplete] = () => {
      const f = this.current;
      this.current = null;
      if (f) answered(this, f, this.#status, this.#keepAlive);
    };
    this.socket.on("data", (chunk: Buffer) => {
      const r = this.#parser.execute(chunk);
      if (r instanceof Error) this.socket.destroy(r);
    });
    const close = () => {
      if (this.#closed) return;
      this.#closed = true;
      const f = this.current;
      this.current = null;
      lost(this, f);
    };
    this.socket.on("error", close);
    this.socket.on("close", close);
  }

  send(text: string, f: InFlight): void {
    this.current = f;
    this.socket.write(text);
  }
}

export async function steadyLoad(opts: SteadyLoadOptions): Promise<LoadFigures> {
  const target = new URL(opts.url);
  const port = Number(target.port || 80);
  const hostHeader = target.host;
  const timeoutMs = opts.timeoutMs ?? 10_000;
  const latencies: number[] = [];
  let ok = 0;
  let non2xx = 0;
  let errors = 0;
  let timeouts = 0;
  let finished = 0;
  let allDone: () => void = () => {};
  const done = new Promise<void>((resolve) => (allDone = resolve));

  const idle: Connection[] = [];
  const open = new Set<Connection>();
  const waiting: { i: number; due: number }[] = [];

  const settle = () => {
    if (++finished === opts.amount) allDone();
  };
  const next = (c: Connection) => {
    const w = waiting.shift();
    if (w) send(c, w.i, w.due);
    else idle.push(c);
  };
  const answered = (c: Connection, f: InFlight, status: number, keepAlive: boolean) => {
    latencies.push(performance.now() - f.due);
    if (status >= 200 && status < 300) ok++;
    else non2xx++;
    settle();
    if (keepAlive) next(c);
    else c.socket.destroy();
  };
  const lost = (c: Connection, f: InFlight | null) => {
    open.delete(c);
    const at = idle.indexOf(c);
    if (at >= 0) idle.splice(at, 1);
    if (f) {
      errors++; // timeouts included (a timed-out request's socket is destroyed)
      if (f.timedOut) timeouts++;
      settle();
    }
    // What waited for a connection gets a new one.
    const w = waiting.shift();
    if (w) dispatch(w.i, w.due);
  };
  const send = (c: Connection, i: number, due: number) => {
    let text: string;
    try {
      text = requestText(opts.request(i), hostHeader);
    } catch {
      errors++;
      settle();
      next(c);
      return;
    }
    c.send(text, { due, sentAt: performance.now(), timedOut: false });
  };
  const dispatch = (i: number, due: number) => {
    const c = idle.pop();
    if (c) return send(c, i, due);
    if (open.size < opts.connections) {
      const fresh = new Connection(port, target.hostname, answered, lost);
      open.add(fresh);
      return send(fresh, i, due);
    }
    waiting.push({ i, due });
  };

  // One timer for every request's timeout.
  const watch = setInterval(() => {
    const now = performance.now();
    for (const c of open) {
      if (c.current && !c.current.timedOut && now - c.current.sentAt > timeoutMs) {
        c.current.timedOut = true;
        c.socket.destroy();
      }
    }
  }, Math.min(250, timeoutMs));

  const intervalMs = 1000 / opts.rate;
  const start = performance.now();
  let i = 0;
  while (i < opts.amount) {
    const now = performance.now();
    // Everything due by now goes out (a late timer catches up; nothing is skipped).
    while (i < opts.amount && start + i * intervalMs <= now) {
      dispatch(i, start + i * intervalMs);
      i++;
    }
    if (i < opts.amount) await new Promise((r) => setTimeout(r, Math.max(0, start + i * intervalMs - performance.now())));
  }
  if (opts.amount > 0) await done;
  const seconds = (performance.now() - start) / 1000;
  clearInterval(watch);
  for (const c of open) c.socket.destroy();
  latencies.sort((a, b) => a - b);
  const at = (q: number) => (latencies.length === 0 ? 0 : latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]);
  return {
    requestsPerSecond: ok / seconds,
    p50Ms: Math.round(at(0.5) * 10) / 10,
    p99Ms: Math.round(at(0.99) * 10) / 10,
    requests: ok + non2xx,
    errors,
    timeouts,
    non2xx,
    seconds,
  };
}
