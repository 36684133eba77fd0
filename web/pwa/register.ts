// Registers the service worker (web/pwa/sw.ts, built to /sw.js) and offers a new version when one
// is deployed: the browser installs the new worker beside the running one, where it waits; the
// update prompt (a toast with a Reload action) asks it to take over, and this tab reloads once it
// has. Other open tabs keep the version they run until they are next opened. The browser looks
// for a new sw.js on every navigation; a tab brought back to the front looks too.
//
// Dependencies are passed in, so unit tests drive it with fake workers. A container whose
// register() yields nothing (Playwright's serviceWorkers: 'block', which the e2e tests use by
// default) leaves the app without a worker, as an old browser would.

import { toast } from "sonner";
import { PWA_TEXT, SKIP_WAITING } from "./messages";

export const SW_URL = "/sw.js";

type Worker = Pick<ServiceWorker, "state" | "postMessage" | "addEventListener">;

export interface Registration {
  installing: Worker | null;
  waiting: Worker | null;
  update(): Promise<unknown>;
  addEventListener(type: "updatefound", listener: () => void): void;
}

export interface Container {
  controller: unknown;
  register(url: string, options: RegistrationOptions): Promise<Registration | undefined>;
  addEventListener(type: "controllerchange", listener: () => void): void;
}

export interface RegisterDeps {
  container: Container | undefined;
  /** Shows the update prompt; `accept` is its Reload action. */
  prompt(accept: () => void): void;
  reload(): void;
  /** Calls `check` whenever the app comes back to the front (visibilitychange to visible). */
  onVisible?(check: () => void): void;
}

export async function registerServiceWorker(deps: RegisterDeps): Promise<Registration | null> {
  const { container } = deps;
  if (!container) return null;
  let registration: Registration | undefined;
  try {
    registration = await container.register(SW_URL, { scope: "/" });
  } catch (err) {
    console.warn("The service worker could not be registered; the app works online only", err);
    return null;
  }
  if (!registration) return null;
  const reg = registration;

  let accepted = false;
  container.addEventListener("controllerchange", () => {
    if (accepted) deps.reload();
  });
  const offer = (worker: Worker) =>
    deps.prompt(() => {
      accepted = true;
      worker.postMessage(SKIP_WAITING);
    });

  // A newly installed worker is an update only when another worker controlled the page before it
  // began installing: the first visit's worker takes over by itself (sw.ts calls clientsClaim()),
  // and WebKit may hand it control of the page before this page sees its "installed" state, so
  // the controller is read when the install starts, not when it ends.
  if (reg.waiting && container.controller) offer(reg.waiting);
  reg.addEventListener("updatefound", () => {
    const worker = reg.installing;
    if (!worker) return;
    const previous = container.controller;
    worker.addEventListener("statechange", () => {
      if (worker.state === "installed" && previous && previous !== worker) offer(worker);
    });
  });
  deps.onVisible?.(() => void reg.update().catch(() => undefined));
  return reg;
}

/** The browser's wiring: navigator.serviceWorker, a sonner toast that stays until acted on,
 *  location.reload. */
export async function registerAppServiceWorker(): Promise<void> {
  if (!("serviceWorker" in navigator)) return;
  await registerServiceWorker({
    container: navigator.serviceWorker as unknown as Container,
    prompt: (accept) =>
      toast.info(PWA_TEXT.updateReady, { id: "app-update", duration: Infinity, action: { label: PWA_TEXT.reload, onClick: accept } }),
    reload: () => window.location.reload(),
    onVisible: (check) =>
      document.addEventListener("visibilitychange", () => {
        if (document.visibilityState === "visible" && navigator.onLine) check();
      }),
  });
}
