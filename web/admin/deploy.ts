// "Deploy to live" of the developer panel (spec/accounts.md sections 4, 7 and 8): POST /api/deploy
// (202 {ok, id}), then GET /api/deploy/status every 5 s until the state is ready or failed. Any
// refusal (a 404 while the route does not exist, a 403, ok false, state failed) ends in
// 'Deployment failed. Please try again.'; a status read that gets no answer at all is retried a
// few times before giving up. Calls and timers are injected so unit tests drive it synchronously.

import { ADMIN_TEXT } from "../../api/rules/admin";
import { ApiRequestError } from "../account/api";
import type { DeployStatus } from "./admin-api";

export const DEPLOY_POLL_MS = 5000;
/** Status reads without any answer (offline) tolerated in a row. */
export const DEPLOY_NETWORK_RETRIES = 3;

export type DeployView =
  | { phase: "idle" }
  | { phase: "starting" }
  | { phase: "building"; status: DeployStatus | null }
  | { phase: "ready"; status: DeployStatus }
  | { phase: "failed"; message: string; detail?: string };

export interface DeployDeps {
  start(): Promise<{ ok: boolean; id?: string }>;
  status(): Promise<DeployStatus>;
  onUpdate(view: DeployView): void;
  setTimeout?: (fn: () => void, ms: number) => unknown;
  clearTimeout?: (handle: unknown) => void;
  pollMs?: number;
}

export interface DeployRun {
  /** Resolves with the final view (ready or failed), or idle when stopped first. */
  readonly done: Promise<DeployView>;
  /** Stops polling (the panel closed); the deploy itself goes on on the server. */
  stop(): void;
}

export function startDeploy(deps: DeployDeps): DeployRun {
  const later = deps.setTimeout ?? ((fn: () => void, ms: number) => setTimeout(fn, ms));
  const cancel = deps.clearTimeout ?? ((h: unknown) => clearTimeout(h as ReturnType<typeof setTimeout>));
  const pollMs = deps.pollMs ?? DEPLOY_POLL_MS;
  let stopped = false;
  let timer: unknown = null;
  let finish!: (v: DeployView) => void;
  const done = new Promise<DeployView>((resolve) => (finish = resolve));

  const end = (view: DeployView) => {
    if (stopped) return;
    stopped = true;
    deps.onUpdate(view);
    finish(view);
  };
  const fail = (err?: unknown) => {
    if (err) console.error("Deployment failed", err);
    const detail = err instanceof Error ? err.message : typeof err === "string" ? err : undefined;
    end({ phase: "failed", message: ADMIN_TEXT.deployFailed, detail });
  };

  let runId: string | null = null;
  let misses = 0;
  const poll = async () => {
    timer = null;
    if (stopped) return;
    let status: DeployStatus;
    try {
      status = await deps.status();
      misses = 0;
    } catch (err) {
      if (err instanceof ApiRequestError && err.network && ++misses <= DEPLOY_NETWORK_RETRIES) {
        schedule();
        return;
      }
      fail(err);
      return;
    }
    if (stopped) return;
    // An answer about an earlier deploy says nothing about this one yet.
    const ours = !runId || !status.id || status.id === runId;
    if (ours && status.state === "ready") return end({ phase: "ready", status });
    if (ours && status.state === "failed") return fail(status.error || "The build failed");
    deps.onUpdate({ phase: "building", status: ours ? status : null });
    schedule();
  };
  const schedule = () => {
    if (!stopped) timer = later(() => void poll(), pollMs);
  };

  deps.onUpdate({ phase: "starting" });
  deps
    .start()
    .then((answer) => {
      if (stopped) return;
      if (!answer.ok) return fail("The server did not accept the deploy");
      runId = answer.id ?? null;
      deps.onUpdate({ phase: "building", status: null });
      void poll();
    })
    .catch(fail);

  return {
    done,
    stop: () => {
      if (stopped) return;
      stopped = true;
      if (timer !== null) cancel(timer);
      finish({ phase: "idle" });
    },
  };
}
