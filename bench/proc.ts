// CPU time of processes on this machine, from Linux's /proc (bench/api's server CPU column,
// bench/pg-ops' PostgreSQL CPU).
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";

let clockTicks: number | null = null;

/** CPU seconds (user + system, every thread) that process `pid` has used, from /proc; undefined
 *  where there is no /proc. */
export function processCpuSeconds(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // Fields after the command name (which may hold spaces) in parentheses: state is field 3,
    // utime and stime fields 14 and 15.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    clockTicks ??= Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim()) || 100;
    return (Number(fields[11]) + Number(fields[12])) / clockTicks;
  } catch {
    return undefined;
  }
}

/** Ids of the running processes whose command name is `name` (empty where there is no /proc). */
export function processesNamed(name: string): number[] {
  let entries: string[];
  try {
    entries = readdirSync("/proc");
  } catch {
    return [];
  }
  return entries.filter((pid) => {
    if (!/^\d+$/.test(pid)) return false;
    try {
      return readFileSync(`/proc/${pid}/comm`, "utf8").trim() === name;
    } catch {
      return false; // ended meanwhile
    }
  }).map(Number);
}

/** This machine's CPU time so far, in clock ticks, from the first line of /proc/stat: all of it,
 *  and the part "stolen" (a virtual machine's vCPU was ready to run but its host ran another
 *  guest); undefined where there is no /proc. */
export function machineCpuTicks(): { total: number; steal: number } | undefined {
  try {
    const line = readFileSync("/proc/stat", "utf8").split("\n", 1)[0];
    const ticks = line.trim().split(/\s+/).slice(1, 9).map(Number); // user nice system idle iowait irq softirq steal
    if (ticks.length < 8 || ticks.some((t) => !Number.isFinite(t))) return undefined;
    return { total: ticks.reduce((a, b) => a + b, 0), steal: ticks[7] };
  } catch {
    return undefined;
  }
}

/** The percentage of the machine's CPU time stolen between two readings of machineCpuTicks(). */
export function stealPercent(before: ReturnType<typeof machineCpuTicks>, after: ReturnType<typeof machineCpuTicks>): number | undefined {
  if (!before || !after || after.total <= before.total) return undefined;
  return (100 * (after.steal - before.steal)) / (after.total - before.total);
}

function parentOf(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]); // field 4: ppid
  } catch {
    return undefined;
  }
}

/** Ids of the running processes below `root` (children, their children, ...), without `root`;
 *  empty where there is no /proc. */
export function descendantsOf(root: number): number[] {
  let entries: string[];
  try {
    entries = readdirSync("/proc").filter((e) => /^\d+$/.test(e));
  } catch {
    return [];
  }
  const children = new Map<number, number[]>();
  for (const e of entries) {
    const pid = Number(e);
    const parent = parentOf(pid);
    if (parent === undefined) continue;
    if (!children.has(parent)) children.set(parent, []);
    children.get(parent)!.push(pid);
  }
  const out: number[] = [];
  const todo = [...(children.get(root) ?? [])];
  while (todo.length > 0) {
    const pid = todo.pop()!;
    out.push(pid);
    todo.push(...(children.get(pid) ?? []));
  }
  return out;
}

/** Memory of the processes `pids` together, in MB: their proportional set size (PSS, from
 *  /proc's smaps_rollup: each shared page split among the processes sharing it, so a browser's
 *  processes add up without counting their shared libraries many times), VmRSS where the kernel
 *  has no smaps_rollup; a process that has ended counts 0. */
export function memoryMB(pids: readonly number[]): number {
  let kB = 0;
  for (const pid of pids) {
    try {
      const pss = /^Pss:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, "utf8"));
      if (pss) {
        kB += Number(pss[1]);
        continue;
      }
    } catch {
      // no smaps_rollup (or ended): try VmRSS
    }
    try {
      const rss = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
      if (rss) kB += Number(rss[1]);
    } catch {
      // ended meanwhile
    }
  }
  return kB / 1024;
}
