// Statements that many requests run at once, sent together: the items asked for during one turn of
// the event loop (until setImmediate: after that turn's I/O callbacks and their promise chains) go
// to the database as one statement. On PostgreSQL a round trip costs both processes far more than
// the row it carries (a socket write that wakes the server, a query object, a parse), so under load
// one statement for several requests is most of the saving; when requests come one at a time, each
// batch holds one item and waits no longer than before. Used for the rate-limit hits
// (services/rate-limit.ts) and the preset insert (services/presets.ts).

/** One item's outcome, in the order the items were given. */
export type Settled<T> = { ok: true; value: T } | { ok: false; error: unknown };

/** The most items sent in one statement. */
export const MAX_BATCH = 200;

export class TickBatcher<In, Out> {
  readonly #run: (items: In[]) => Promise<Settled<Out>[]>;
  #queue: { item: In; resolve(value: Out): void; reject(err: unknown): void }[] = [];
  #scheduled = false;
  /** Batches sent and items in them (tests, and the batch size under load). */
  readonly sent = { batches: 0, items: 0 };

  /** `run` answers one outcome per item, in order; if it throws, every item of the batch fails. */
  constructor(run: (items: In[]) => Promise<Settled<Out>[]>) {
    this.#run = run;
  }

  add(item: In): Promise<Out> {
    return new Promise((resolve, reject) => {
      this.#queue.push({ item, resolve, reject });
      if (!this.#scheduled) {
        this.#scheduled = true;
        setImmediate(() => void this.#flush());
      }
    });
  }

  async #flush(): Promise<void> {
    const batch = this.#queue.splice(0, MAX_BATCH);
    if (this.#queue.length > 0) setImmediate(() => void this.#flush());
    else this.#scheduled = false;
    this.sent.batches++;
    this.sent.items += batch.length;
    let outcomes: Settled<Out>[];
    try {
      outcomes = await this.#run(batch.map((b) => b.item));
      if (outcomes.length !== batch.length) throw new Error(`A batch of ${batch.length} answered ${outcomes.length} outcomes`);
    } catch (err) {
      for (const b of batch) b.reject(err);
      return;
    }
    batch.forEach((b, i) => {
      const o = outcomes[i];
      if (o.ok) b.resolve(o.value);
      else b.reject(o.error);
    });
  }
}

/** Runs `one` for each item on its own, each with its own outcome (a batch statement's fallback). */
export async function eachAlone<In, Out>(items: In[], one: (item: In) => Promise<Out>): Promise<Settled<Out>[]> {
  const results = await Promise.allSettled(items.map(one));
  return results.map((r) => (r.status === "fulfilled" ? { ok: true, value: r.value } : { ok: false, error: r.reason as unknown }));
}

/** One batcher per owner (a database handle) and purpose; `run` gets the owner (a module-level
 *  function, so a request that finds the batcher made allocates nothing). */
export function batcherFor<O extends object, In, Out>(
  batchers: WeakMap<O, TickBatcher<In, Out>>,
  owner: O,
  run: (owner: O, items: In[]) => Promise<Settled<Out>[]>,
): TickBatcher<In, Out> {
  let b = batchers.get(owner);
  if (!b) batchers.set(owner, (b = new TickBatcher((items) => run(owner, items))));
  return b;
}
