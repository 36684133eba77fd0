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
