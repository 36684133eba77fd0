// A small W3C WebDriver (classic, HTTP) client: the protocol WebKitGTK's WebKitWebDriver speaks,
// as Safari's safaridriver does. Just what the engine smoke tests use: a session, navigation,
// script execution (async, so a script can await), element lookup, click and typing. Element
// clicks and key input go through the driver, so the page sees trusted input events (a user
// gesture: audio may start from them).

export class WebDriverError extends Error {
  constructor(
    readonly error: string,
    message: string,
  ) {
    super(`WebDriver ${error}: ${message}`);
  }
}

export class WebDriverSession {
  private constructor(
    private readonly base: string,
    readonly id: string,
    readonly capabilities: Record<string, unknown>,
  ) {}

  /** Opens a session on the driver listening at `base` (http://127.0.0.1:port). */
  static async create(base: string, capabilities: Record<string, unknown>): Promise<WebDriverSession> {
    const value = (await call(base, "POST", "/session", { capabilities: { alwaysMatch: capabilities } })) as { sessionId: string; capabilities: Record<string, unknown> };
    return new WebDriverSession(base, value.sessionId, value.capabilities);
  }

  private cmd(method: string, path: string, body?: unknown): Promise<unknown> {
    return call(this.base, method, `/session/${this.id}${path}`, body);
  }

  async goto(url: string): Promise<void> {
    await this.cmd("POST", "/url", { url });
  }

  async setTimeouts(ms: { script?: number; pageLoad?: number; implicit?: number }): Promise<void> {
    await this.cmd("POST", "/timeouts", ms);
  }

  /** Runs `body` (a function's source taking `arg`, possibly async) in the page and returns its
   *  JSON result. */
  async evaluate<T, A>(fn: (arg: A) => T | Promise<T>, arg?: A): Promise<T> {
    const script = `const done = arguments[arguments.length - 1];
      Promise.resolve().then(() => (${fn.toString()})(arguments[0]))
        .then((v) => done({ ok: v === undefined ? null : v }), (e) => done({ err: String(e && e.stack || e) }));`;
    const res = (await this.cmd("POST", "/execute/async", { script, args: [arg ?? null] })) as { ok?: T; err?: string };
    if (res && typeof res === "object" && "err" in res && res.err !== undefined) throw new Error(`in the page: ${res.err}`);
    return (res as { ok: T }).ok;
  }

  /** The first element matching the CSS `selector`. */
  async find(selector: string): Promise<string> {
    // An element reference is an object with one key (the W3C element identifier): its value.
    const value = (await this.cmd("POST", "/element", { using: "css selector", value: selector })) as Record<string, string>;
    return Object.values(value)[0];
  }

  async click(selector: string): Promise<void> {
    await this.cmd("POST", `/element/${await this.find(selector)}/click`, {});
  }

  /** Clears the field and types `text` into it, as a person would. */
  async fill(selector: string, text: string): Promise<void> {
    const el = await this.find(selector);
    await this.cmd("POST", `/element/${el}/clear`, {});
    await this.cmd("POST", `/element/${el}/value`, { text });
  }

  /** Sets a file input's files (absolute paths on this machine). */
  async upload(selector: string, paths: string[]): Promise<void> {
    const el = await this.find(selector);
    await this.cmd("POST", `/element/${el}/value`, { text: paths.join("\n") });
  }

  async close(): Promise<void> {
    await this.cmd("DELETE", "").catch(() => undefined);
  }
}

async function call(base: string, method: string, path: string, body?: unknown): Promise<unknown> {
  const started = Date.now();
  const res = await fetch(base + path, {
    method,
    headers: body === undefined ? {} : { "Content-Type": "application/json; charset=utf-8" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  const data = (text ? JSON.parse(text) : {}) as { value?: unknown };
  const value = data.value as { error?: string; message?: string } | undefined;
  if (!res.ok || (value && typeof value === "object" && typeof value.error === "string")) {
    throw new WebDriverError(value?.error ?? String(res.status), `${value?.message || text} (${method} ${path.replace(/^\/session\/[^/]+/, "")}, after ${Date.now() - started} ms)`);
  }
  return data.value;
}
