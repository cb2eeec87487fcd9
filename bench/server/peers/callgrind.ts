/**
 * Instructions a server process executes over a timed part, counted by valgrind's callgrind:
 * unlike CPU time, the count does not move with the load other processes put on the machine.
 * The server runs under callgrind with instrumentation off (start-up and warm-up at valgrind's
 * plain speed); `callgrind_control` turns it on, zeroes, dumps and turns it off around the part.
 */
import { execFile } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import type { Target } from "../targets.js";

const run = promisify(execFile);

/** `wrapper` for spawnTarget: the server's node under callgrind, dumps in `dir`. */
export function callgrindWrapper(dir: string): string[] {
  return [
    "valgrind",
    "--tool=callgrind",
    "--smc-check=all-non-file",
    "--instr-atstart=no",
    `--callgrind-out-file=${join(dir, "callgrind.%p")}`,
  ];
}

/** Sends a callgrind command; IPC pings wake the server's event loop until callgrind has taken it. */
async function control(target: Target, args: string[]): Promise<void> {
  let finished = false;
  const done = run("callgrind_control", [...args, String(target.pid)]).finally(() => (finished = true));
  while (!finished) {
    await Promise.race([done, target.stats().then(() => new Promise((resolve) => setTimeout(resolve, 50)))]);
  }
  await done;
}

/** The Ir total of the newest dump of process `pid` in `dir`. */
function lastDumpTotal(dir: string, pid: number): number {
  const dumps = readdirSync(dir)
    .filter((f) => f.startsWith(`callgrind.${pid}.`))
    .sort((a, b) => Number(a.split(".").at(-1)) - Number(b.split(".").at(-1)));
  const text = readFileSync(join(dir, dumps.at(-1)!), "utf8");
  const line = /^(?:totals|summary): (\d+)/m.exec(text);
  if (!line) throw new Error(`no totals in ${dumps.at(-1)}`);
  return Number(line[1]);
}

/** Instructions the target's process executed while `part` ran (the target must run under callgrindWrapper(dir)). */
export async function instructionsDuring(target: Target, dir: string, part: () => Promise<unknown>): Promise<number> {
  if (target.pid === undefined) throw new Error(`${target.kind} does not run in a process of its own`);
  await control(target, ["-i", "on"]);
  await control(target, ["-z"]);
  await part();
  await control(target, ["-d"]);
  await control(target, ["-i", "off"]);
  return lastDumpTotal(dir, target.pid);
}
