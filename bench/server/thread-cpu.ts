/**
 * CPU of this process's threads other than the main one (Linux: /proc/self/task), µs: V8's
 * background compiler (TurboFan) and concurrent GC helpers, libuv's pool. process.cpuUsage()
 * counts them too, so a server whose code is still being optimised pays for it there; this says
 * how much. Undefined where /proc is not available. Clock ticks: 10 ms resolution.
 */
import { readdirSync, readFileSync } from "node:fs";

const TICK_US = 10_000;

export function threadCpuUs(): number | undefined {
  let tasks: string[];
  try {
    tasks = readdirSync("/proc/self/task");
  } catch {
    return undefined;
  }
  let ticks = 0;
  for (const tid of tasks) {
    if (tid === String(process.pid)) continue;
    try {
      const stat = readFileSync(`/proc/self/task/${tid}/stat`, "utf8");
      // Fields after the command name, which may hold spaces: state is the first, utime the 12th, stime the 13th.
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      // the thread ended meanwhile
    }
  }
  return ticks * TICK_US;
}
