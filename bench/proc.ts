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
