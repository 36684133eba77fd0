// The service worker's registration and update prompt with fake workers: the first visit's worker
// is no update (also when it controls the page before its "installed" state is seen, as in
// WebKit); a worker installed while another controls the page, or one already waiting, is
// offered; Reload sends SKIP_WAITING and this tab reloads only once the new worker has taken
// over, and only if it asked; a blocked or failing registration leaves the app as it was.

import { describe, expect, it, vi } from "vitest";
import { registerServiceWorker, SW_URL, type Container, type Registration } from "../../../../web/pwa/register";
import { isSkipWaiting, SKIP_WAITING } from "../../../../web/pwa/messages";

type Listener = () => void;

class FakeWorker {
  state: ServiceWorkerState = "installing";
  messages: unknown[] = [];
  #listeners: Listener[] = [];
  postMessage(m: unknown) {
    this.messages.push(m);
  }
  addEventListener(_type: string, l: Listener) {
    this.#listeners.push(l);
  }
  become(state: ServiceWorkerState) {
    this.state = state;
    for (const l of this.#listeners) l();
  }
}

class FakeRegistration {
  installing: FakeWorker | null = null;
  waiting: FakeWorker | null = null;
  updates = 0;
  #found: Listener[] = [];
  async update() {
    this.updates++;
  }
  addEventListener(_type: "updatefound", l: Listener) {
    this.#found.push(l);
  }
  /** The browser found a new sw.js and starts installing it. */
  found(worker: FakeWorker) {
    this.installing = worker;
    for (const l of this.#found) l();
  }
}

function fakeContainer(registration: FakeRegistration | undefined, controller: unknown = null) {
  const changes: Listener[] = [];
  const container = {
    controller,
    registered: [] as [string, RegistrationOptions][],
    register: async (url: string, options: RegistrationOptions) => {
      container.registered.push([url, options]);
      return registration as unknown as Registration | undefined;
    },
    addEventListener: (_type: "controllerchange", l: Listener) => void changes.push(l),
    /** The new worker activated and now controls the page. */
    takeOver() {
      for (const l of changes) l();
    },
  };
  return container;
}

function deps(container: Container | undefined) {
  const accepts: (() => void)[] = [];
  let visible: (() => void) | null = null;
  const reload = vi.fn();
  return {
    accepts,
    reload,
    visible: () => visible?.(),
    d: { container, prompt: (accept: () => void) => accepts.push(accept), reload, onVisible: (check: () => void) => (visible = check) },
  };
}

describe("service worker registration", () => {
  it("registers /sw.js for the whole site; the first visit's worker is not offered as an update", async () => {
    const reg = new FakeRegistration();
    const c = fakeContainer(reg, null);
    const t = deps(c);
    expect(await registerServiceWorker(t.d)).toBe(reg);
    expect(c.registered).toEqual([[SW_URL, { scope: "/" }]]);
    const first = new FakeWorker();
    reg.found(first);
    first.become("installed");
    first.become("activated");
    c.takeOver(); // clientsClaim: the first page is now controlled
    expect(t.accepts).toHaveLength(0);
    expect(t.reload).not.toHaveBeenCalled();
  });

  it("the first visit's worker claiming the page before its 'installed' state is seen (WebKit) is still no update", async () => {
    const reg = new FakeRegistration();
    const c = fakeContainer(reg, null);
    const t = deps(c);
    await registerServiceWorker(t.d);
    const first = new FakeWorker();
    reg.found(first);
    // clientsClaim() has made it the page's controller by the time the page hears "installed".
    c.controller = first;
    first.become("installed");
    first.become("activated");
    c.takeOver();
    expect(t.accepts).toHaveLength(0);
    // A later deploy, while that worker controls the page, is an update.
    const next = new FakeWorker();
    reg.found(next);
    next.become("installed");
    expect(t.accepts).toHaveLength(1);
  });

  it("a new version installed while a worker controls the page is offered; Reload hands over, then reloads", async () => {
    const reg = new FakeRegistration();
    const c = fakeContainer(reg, { scriptURL: "/sw.js" });
    const t = deps(c);
    await registerServiceWorker(t.d);
    const next = new FakeWorker();
    reg.found(next);
    expect(t.accepts).toHaveLength(0); // not while it is still installing
    next.become("installed");
    expect(t.accepts).toHaveLength(1);
    t.accepts[0]();
    expect(next.messages).toEqual([SKIP_WAITING]);
    expect(isSkipWaiting(next.messages[0])).toBe(true);
    expect(t.reload).not.toHaveBeenCalled(); // not before the new worker has taken over
    c.takeOver();
    expect(t.reload).toHaveBeenCalledTimes(1);
  });

  it("a worker already waiting from an earlier visit is offered at once", async () => {
    const reg = new FakeRegistration();
    reg.waiting = new FakeWorker();
    reg.waiting.state = "installed";
    const t = deps(fakeContainer(reg, { scriptURL: "/sw.js" }));
    await registerServiceWorker(t.d);
    expect(t.accepts).toHaveLength(1);
  });

  it("a tab that did not ask does not reload when another tab's choice brings the new worker", async () => {
    const reg = new FakeRegistration();
    const c = fakeContainer(reg, { scriptURL: "/sw.js" });
    const t = deps(c);
    await registerServiceWorker(t.d);
    const next = new FakeWorker();
    reg.found(next);
    next.become("installed");
    c.takeOver();
    expect(t.reload).not.toHaveBeenCalled();
  });

  it("looks for a new version when the app comes back to the front", async () => {
    const reg = new FakeRegistration();
    const t = deps(fakeContainer(reg));
    await registerServiceWorker(t.d);
    t.visible();
    t.visible();
    expect(reg.updates).toBe(2);
  });

  it("no service worker support, a blocked registration (nothing returned) or a refused one: no worker, no error", async () => {
    expect(await registerServiceWorker(deps(undefined).d)).toBeNull();
    expect(await registerServiceWorker(deps(fakeContainer(undefined)).d)).toBeNull();
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    const refusing = { ...fakeContainer(undefined), register: () => Promise.reject(new Error("SecurityError")) };
    expect(await registerServiceWorker(deps(refusing).d)).toBeNull();
    expect(warn).toHaveBeenCalledTimes(1);
    warn.mockRestore();
  });
});
