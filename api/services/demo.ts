// The one demo per account (spec/accounts.md sections 1, 4, 8 and 9): a free account may start it
// once; for its length (10 minutes) the entitlement function gives level 'demo'. The row in
// demo_sessions (primary key user_id) is what makes "once" hold, even for two starts at once.
import type { Services } from "../context";
import type { UserRow } from "../db/schema";
import { ApiError } from "../errors";
import { MSG } from "../messages";

export interface DemoStatus {
  canStartDemo: boolean;
  hasUsedDemo: boolean;
  isActive: boolean;
  timeRemaining: number; // ms
  duration: number; // ms
}

export async function demoStatus(s: Services, user: UserRow): Promise<DemoStatus> {
  const ent = await s.entitlementsOf(user);
  return {
    canStartDemo: !ent.demo.hasUsedDemo && !ent.hasUnlimitedAccess,
    hasUsedDemo: ent.demo.hasUsedDemo,
    isActive: ent.demo.isActive,
    timeRemaining: ent.demo.timeRemaining,
    duration: s.demoDurationMs,
  };
}

export async function startDemo(s: Services, user: UserRow): Promise<{ duration: number; message: string }> {
  const ent = await s.entitlementsOf(user);
  if (ent.hasUnlimitedAccess) throw new ApiError(409, MSG.demoNotNeeded);
  if (ent.demo.hasUsedDemo) throw new ApiError(409, MSG.demoUsed);
  const now = s.clock();
  const inserted = await s.db
    .insertInto("demo_sessions")
    .values({
      user_id: user.id,
      started_at: now.toISOString(),
      ends_at: new Date(now.getTime() + s.demoDurationMs).toISOString(),
    })
    .onConflict((oc) => oc.column("user_id").doNothing())
    .executeTakeFirst();
  if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 0) throw new ApiError(409, MSG.demoUsed);
  return { duration: s.demoDurationMs, message: MSG.demoStarted };
}
