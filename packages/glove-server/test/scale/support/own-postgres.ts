import { execFileSync } from "node:child_process";
import { chownSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "./own-redis.js";

/** Runs a PostgreSQL tool as a user allowed to (PostgreSQL refuses root). */
function run(command: string, args: string[]): void {
  if (process.getuid?.() === 0) {
    const line = [command, ...args].map((a) => `'${a.replace(/'/g, "'\\''")}'`).join(" ");
    execFileSync("su", ["postgres", "-c", line], { stdio: "ignore" });
  } else {
    execFileSync(command, args, { stdio: "ignore" });
  }
}

/** Whether this machine can run a PostgreSQL of the test's own (initdb and pg_ctl on PATH). */
export function canRunOwnPostgres(): boolean {
  try {
    execFileSync("sh", ["-c", "command -v initdb && command -v pg_ctl"], { stdio: "ignore" });
    if (process.getuid?.() === 0) execFileSync("id", ["postgres"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

/** A PostgreSQL cluster of this test's own, so restarting it disturbs no other test. */
export class OwnPostgres {
  readonly dir = mkdtempSync(join(tmpdir(), "glove-scale-pg-"));

  private constructor(readonly port: number) {}

  static async start(): Promise<OwnPostgres> {
    const pg = new OwnPostgres(await freePort());
    if (process.getuid?.() === 0)
      chownSync(pg.dir, Number(execFileSync("id", ["-u", "postgres"]).toString().trim()), 0);
    run("initdb", ["-D", join(pg.dir, "data"), "-A", "trust", "-U", "postgres"]);
    pg.start();
    return pg;
  }

  get url(): string {
    return `postgres://postgres@127.0.0.1:${this.port}/postgres`;
  }

  start(): void {
    run("pg_ctl", [
      "-D",
      join(this.dir, "data"),
      "-l",
      join(this.dir, "log"),
      "-w",
      "-o",
      `-p ${this.port} -k ${this.dir} -c listen_addresses=127.0.0.1`,
      "start",
    ]);
  }

  /** Stops at once (connections are cut), as a crash or a restart does. */
  stop(): void {
    run("pg_ctl", ["-D", join(this.dir, "data"), "-m", "immediate", "-w", "stop"]);
  }

  destroy(): void {
    try {
      this.stop();
    } catch {
      // already stopped
    }
    rmSync(this.dir, { recursive: true, force: true });
  }
}
