// A small Stripe-compatible HTTP server for tests: the REAL `stripe` library talks to it through
// STRIPE_API_BASE (host/port/protocol options). It answers the few endpoints the API uses with
// Stripe-shaped JSON (customers, checkout/sessions create + retrieve, billing_portal/sessions,
// subscriptions retrieve), records every request (method, path, form body), lets a test set or
// change the objects it answers, and honours Idempotency-Key like Stripe does.
//
// For browser tests it also plays the hosted pages: GET /pay/{session} marks the session paid
// (creating its subscription) and redirects to its success_url; GET /portal/{id} redirects to the
// return_url. With `webhook` set, paying also delivers a signed checkout.session.completed.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import Stripe from "stripe";

export type Json = Record<string, unknown>;

export interface RecordedRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  /** The x-www-form-urlencoded body, flat as Stripe encodes it: "line_items[0][price]" -> "price_1". */
  form: Record<string, string>;
}

export interface FakeStripeOptions {
  /** Milliseconds since the epoch; defaults to Date.now (pass the app's test clock). */
  now?: () => number;
  /** Where paying on /pay/{id} delivers checkout.session.completed, signed with `secret`. */
  webhook?: { url: string; secret: string };
}

export interface FakeStripe {
  /** The STRIPE_API_BASE value, e.g. http://127.0.0.1:41234 */
  url: string;
  requests: RecordedRequest[];
  /** Objects by id; tests may add, change or delete them. */
  customers: Map<string, Json>;
  sessions: Map<string, Json>;
  subscriptions: Map<string, Json>;
  /** Refunds made (POST /v1/refunds), in order; a repeated idempotency key makes none. */
  refunds: Json[];
  /** Pays a checkout session: status complete, payment_status paid, and for subscription mode an
   *  active subscription (its period ends `periodDays` from now). Returns the session. */
  pay(sessionId: string, opts?: { periodDays?: number }): Json;
  /** Where paying on /pay/{id} delivers checkout.session.completed; settable once the app runs. */
  webhook: { url: string; secret: string } | null;
  /** Requests whose path starts with `prefix`. */
  requestsTo(prefix: string): RecordedRequest[];
  close(): Promise<void>;
}

/** A Stripe event around `object`. `created` is in seconds. */
export function stripeEvent(type: string, object: Json, created: number, id = `evt_${Math.random().toString(36).slice(2, 14)}`): Json {
  return { id, object: "event", api_version: Stripe.API_VERSION, created, type, livemode: false, pending_webhooks: 1, data: { object } };
}

/** The raw body and headers of a webhook delivery signed the way Stripe signs it. */
export function signedWebhook(event: Json, secret: string, timestamp: number): { body: string; headers: Record<string, string> } {
  const body = JSON.stringify(event, null, 2);
  const signature = Stripe.webhooks.generateTestHeaderString({ payload: body, secret, timestamp });
  return { body, headers: { "Content-Type": "application/json", "Stripe-Signature": signature } };
}

function stripeError(res: ServerResponse, status: number, message: string, code?: string) {
  send(res, status, { error: { type: status === 401 ? "authentication_error" : "invalid_request_error", code, message } });
}

function send(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { "Content-Type": "application/json", "Request-Id": `req_${Date.now()}` });
  res.end(JSON.stringify(body));
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((ok, fail) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => ok(Buffer.concat(chunks).toString("utf8")));
    req.on("error", fail);
  });
}

/** "metadata[userId]" style keys with this prefix, as a plain object. */
function nested(form: Record<string, string>, prefix: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(form)) {
    const m = k.startsWith(`${prefix}[`) ? /^\[([^\]]+)\]$/.exec(k.slice(prefix.length)) : null;
    if (m) out[m[1]] = v;
  }
  return out;
}

export async function startFakeStripe(options: FakeStripeOptions = {}): Promise<FakeStripe> {
  const now = options.now ?? Date.now;
  const seconds = () => Math.floor(now() / 1000);
  const requests: RecordedRequest[] = [];
  const customers = new Map<string, Json>();
  const sessions = new Map<string, Json>();
  const subscriptions = new Map<string, Json>();
  const idempotent = new Map<string, Json>();
  const refunds: Json[] = [];
  let counter = 0;
  const nextId = (prefix: string) => `${prefix}_test_${(++counter).toString().padStart(6, "0")}`;
  let base = "";

  function pay(sessionId: string, opts: { periodDays?: number } = {}): Json {
    const session = sessions.get(sessionId);
    if (!session) throw new Error(`fake stripe: no session ${sessionId}`);
    if (session.mode === "subscription" && !session.subscription) {
      const id = nextId("sub");
      const start = seconds();
      const end = start + (opts.periodDays ?? 30) * 86_400;
      subscriptions.set(id, {
        id,
        object: "subscription",
        customer: session.customer,
        status: "active",
        created: start,
        cancel_at_period_end: false,
        metadata: session.subscription_metadata ?? {},
        items: {
          object: "list",
          data: [{ id: nextId("si"), object: "subscription_item", price: { id: session.price, object: "price" }, current_period_start: start, current_period_end: end }],
        },
      });
      session.subscription = id;
    }
    Object.assign(session, { status: "complete", payment_status: "paid" });
    if (session.mode === "payment" && !session.payment_intent) session.payment_intent = nextId("pi");
    return session;
  }

  function create(path: string, form: Record<string, string>): Json | null {
    if (path === "/v1/customers") {
      const customer = { id: nextId("cus"), object: "customer", email: form.email ?? null, metadata: nested(form, "metadata"), created: seconds() };
      customers.set(customer.id, customer);
      return customer;
    }
    if (path === "/v1/checkout/sessions") {
      const id = nextId("cs");
      const session: Json = {
        id,
        object: "checkout.session",
        mode: form.mode,
        status: "open",
        payment_status: "unpaid",
        customer: form.customer ?? null,
        client_reference_id: form.client_reference_id ?? null,
        metadata: nested(form, "metadata"),
        subscription_metadata: nested(form, "subscription_data[metadata]"),
        price: form["line_items[0][price]"],
        amount_total: form["line_items[0][price_data][unit_amount]"] ? Number(form["line_items[0][price_data][unit_amount]"]) : null,
        line_item_name: form["line_items[0][price_data][product_data][name]"] ?? null,
        subscription: null,
        success_url: form.success_url,
        cancel_url: form.cancel_url,
        url: `${base}/pay/${id}`,
        created: seconds(),
        expires_at: seconds() + 86_400,
      };
      sessions.set(id, session);
      return session;
    }
    if (path === "/v1/refunds") {
      // A whole refund of a paid one-time session's PaymentIntent; none for an unknown intent.
      const paid = [...sessions.values()].find((x) => x.payment_intent === form.payment_intent);
      if (!paid) return null;
      const refund = { id: nextId("re"), object: "refund", payment_intent: form.payment_intent, amount: paid.amount_total, reason: form.reason ?? null, metadata: nested(form, "metadata"), status: "succeeded", created: seconds() };
      refunds.push(refund);
      return refund;
    }
    if (path === "/v1/billing_portal/sessions") {
      const id = nextId("bps");
      return { id, object: "billing_portal.session", customer: form.customer, return_url: form.return_url ?? null, url: `${base}/portal/${id}?return=${encodeURIComponent(form.return_url ?? "")}`, created: seconds() };
    }
    return null;
  }

  async function deliverCompleted(session: Json) {
    const target = fake.webhook;
    if (!target) return;
    const { body, headers } = signedWebhook(stripeEvent("checkout.session.completed", session, seconds()), target.secret, seconds());
    await fetch(target.url, { method: "POST", headers, body }).catch(() => {});
  }

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? "/", "http://fake");
    const raw = await readBody(req);
    const form = Object.fromEntries(new URLSearchParams(raw));
    const query = Object.fromEntries(url.searchParams);
    requests.push({ method: req.method ?? "GET", path: url.pathname, query, form });

    // Hosted pages (a browser, no API key).
    const page = /^\/(pay|portal)\/([\w]+)$/.exec(url.pathname);
    if (req.method === "GET" && page) {
      let target = query.return ?? "/";
      if (page[1] === "pay") {
        const session = sessions.get(page[2]);
        if (!session) return stripeError(res, 404, "No such checkout session", "resource_missing");
        pay(page[2]);
        await deliverCompleted(session);
        target = String(session.success_url).replace("{CHECKOUT_SESSION_ID}", page[2]);
      }
      res.writeHead(303, { Location: target });
      return res.end();
    }

    if (!/^Bearer sk_\w+/.test(req.headers.authorization ?? "")) return stripeError(res, 401, "Invalid API Key provided");
    if (req.method === "POST") {
      const key = req.headers["idempotency-key"];
      const cacheKey = typeof key === "string" ? `${url.pathname} ${key}` : null;
      const cached = cacheKey ? idempotent.get(cacheKey) : undefined;
      if (cached) return send(res, 200, cached);
      if (url.pathname === "/v1/refunds" && refunds.some((r) => r.payment_intent === form.payment_intent)) {
        return stripeError(res, 400, `Charge for ${form.payment_intent} has already been refunded.`, "charge_already_refunded");
      }
      const created = create(url.pathname, form);
      if (!created) return stripeError(res, 404, `Unrecognized request URL (POST: ${url.pathname})`);
      if (cacheKey) idempotent.set(cacheKey, created);
      return send(res, 200, created);
    }
    const get = /^\/v1\/(checkout\/sessions|subscriptions|customers)\/([^/]+)$/.exec(url.pathname);
    if (req.method === "GET" && get) {
      const store = get[1] === "checkout/sessions" ? sessions : get[1] === "subscriptions" ? subscriptions : customers;
      const found = store.get(decodeURIComponent(get[2]));
      if (!found) return stripeError(res, 404, `No such ${get[1]}: '${get[2]}'`, "resource_missing");
      return send(res, 200, found);
    }
    return stripeError(res, 404, `Unrecognized request URL (${req.method}: ${url.pathname})`);
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => stripeError(res, 500, String(err)));
  });
  await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const fake: FakeStripe = {
    url: base,
    webhook: options.webhook ?? null,
    requests,
    customers,
    sessions,
    subscriptions,
    refunds,
    pay,
    requestsTo: (prefix) => requests.filter((r) => r.path.startsWith(prefix)),
    close: () =>
      new Promise<void>((done) => {
        server.close(() => done());
        server.closeAllConnections();
      }),
  };
  return fake;
}
