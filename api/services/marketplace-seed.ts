// The sounds a fresh installation ships: rendered by the engine from studio states at first start
// (the same WavRenderer as the WAV export), stored like any upload, and marked with a seed key so
// each is made once (a deleted seed is not brought back unless its key changes). At server start
// each missing sound is queued as a job on the shared queue (services/jobs.ts), one per sound.
import { createNodeEngine } from "../../dsp/host/node";
import { WavRenderer } from "../../dsp/host/export/render";
import { defaultAudioState, type AudioState } from "../../dsp/host/schema/state";
import type { Services } from "../context";
import type { SoundCategory } from "../rules/marketplace";
import { JOB_DEFINITIONS } from "./jobs";
import { createSound, readableOf } from "./marketplace";

export interface SeedSound {
  key: string;
  title: string;
  description: string;
  priceCents: number;
  category: SoundCategory;
  tags: string[];
  seconds: number;
  state: AudioState;
}

/** A studio state with the given channels (the rest off) and effects on at the given values. */
function patch(channels: { frequency: number; waveform?: "sine" | "triangle" }[], effects: Record<string, number>): AudioState {
  const state = defaultAudioState();
  state.channels = state.channels.map((c, i) =>
    channels[i] ? { ...c, frequency: channels[i].frequency, waveform: channels[i].waveform ?? "sine", enabled: true } : { ...c, frequency: 0, enabled: false },
  );
  for (const [id, value] of Object.entries(effects)) state.effects[id] = { ...state.effects[id], enabled: true, value };
  return state;
}

const SEED_SECONDS = 60;

export const SEED_SOUNDS: readonly SeedSound[] = [
  {
    key: "seed-schumann-calm-v1",
    title: "Schumann Calm",
    description: "A warm 136.1 Hz tone that swells at the 7.83 Hz Schumann rate, in a soft room. Free to download.",
    priceCents: 0,
    category: "Meditation",
    tags: ["schumann", "calm", "free"],
    seconds: SEED_SECONDS,
    state: patch([{ frequency: 136.1 }, { frequency: 272.2 }], { tremolo: 7.8, reverb: 45 }),
  },
  {
    key: "seed-theta-drift-v1",
    title: "Theta Drift",
    description: "A 6 Hz binaural beat on a 200 Hz carrier over quiet pink noise. Use headphones.",
    priceCents: 199,
    category: "Binaural",
    tags: ["theta", "binaural", "sleep"],
    seconds: SEED_SECONDS,
    state: patch([{ frequency: 200 }], { binaural: 6, noise: 10, reverb: 30 }),
  },
  {
    key: "seed-deep-focus-v1",
    title: "Deep Focus 10",
    description: "A 220 Hz triangle tone pulsing at 10 Hz (isochronic, no headphones needed) for focused work.",
    priceCents: 299,
    category: "Focus",
    tags: ["focus", "isochronic", "alpha"],
    seconds: SEED_SECONDS,
    state: patch([{ frequency: 220, waveform: "triangle" }], { isoPulses: 10, chorus: 20 }),
  },
];

/** Renders and stores one seed sound unless it was made before; true when it was added. */
export async function seedOne(s: Services, seed: SeedSound): Promise<boolean> {
  const storage = s.storage;
  if (!storage) return false;
  const exists = await s.db.selectFrom("marketplace_sounds").select("id").where("seed_key", "=", seed.key).executeTakeFirst();
  if (exists) return false;
  const renderer = new WavRenderer(createNodeEngine(48000), seed.state, seed.seconds);
  const file = await storage.write(readableOf(renderer.chunks(1 << 20, 2)));
  await createSound(
    s,
    storage,
    null,
    {
      title: seed.title,
      description: seed.description,
      priceCents: seed.priceCents,
      minutes: Math.ceil(seed.seconds / 60),
      category: seed.category,
      tags: seed.tags,
      specs: "48 kHz, 16-bit stereo WAV, rendered by the studio's engine",
      frequencies: JSON.stringify({
        channels: seed.state.channels.filter((c) => c.enabled).map(({ frequency, volume, waveform }) => ({ frequency, volume, waveform })),
      }),
    },
    file,
    renderer.plan.totalBytes,
    seed.key,
  );
  return true;
}

/** Renders and stores every seed sound not yet made, here and now; returns how many were added. */
export async function seedMarketplace(s: Services, seeds: readonly SeedSound[] = SEED_SOUNDS): Promise<number> {
  let added = 0;
  for (const seed of seeds) if (await seedOne(s, seed)) added++;
  return added;
}

interface SeedJobData {
  key: string;
}

/** Queues one render per shipped sound not yet made, keyed by the seed key: API processes starting
 *  together queue each sound once while it is queued or running. A process that looks just after
 *  another finished a sound may queue it again; the worker checks before rendering, so each sound
 *  is rendered once. */
export async function enqueueSeeds(s: Services, seeds: readonly SeedSound[] = SEED_SOUNDS): Promise<string[]> {
  if (!s.storage) return [];
  const ids: string[] = [];
  for (const seed of seeds) {
    const exists = await s.db.selectFrom("marketplace_sounds").select("id").where("seed_key", "=", seed.key).executeTakeFirst();
    if (!exists) ids.push(await s.jobs.enqueue("marketplace-seed", { key: seed.key } satisfies SeedJobData, { singletonKey: seed.key }));
  }
  return ids;
}

/** The seed worker: renders the sound named by the job (a key no longer shipped is skipped). */
export function registerSeedJobs(s: Services, seeds: readonly SeedSound[] = SEED_SOUNDS): void {
  s.jobs.work<SeedJobData, { added: boolean }>("marketplace-seed", JOB_DEFINITIONS["marketplace-seed"].concurrency, async ({ data }) => {
    const seed = seeds.find((x) => x.key === data.key);
    return { added: seed ? await seedOne(s, seed) : false };
  });
}
