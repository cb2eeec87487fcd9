/**
 * A server under test, in a child process (the bench: only the server's CPU is counted) or in
 * this process (the smoke test: CPU then includes the client).
 */
import { fork, type ChildProcess } from "node:child_process";
import { writeFile } from "node:fs/promises";
import { Session } from "node:inspector/promises";
import { fileURLToPath } from "node:url";
import { startBareTarget, type BareConfig } from "./bare-target.js";
import { startGloveTarget, type GloveTargetOptions } from "./glove-target.js";
import { PEER_KINDS, type PeerKind, type PeerOptions } from "./peers/peer-options.js";
import { servePeer } from "./peers/serve-peer.js";
import type { Serving } from "./serving.js";
import { threadCpuUs } from "./thread-cpu.js";
import { countWrites, writeCounts } from "./write-counter.js";

export type TargetKind = "glove" | "bare" | PeerKind;

export interface ServerStats {
  /** process.cpuUsage() user + system of the server's process, µs. */
  cpuUs: number;
  /** Of that, the threads other than the main one (JIT compiler, GC helpers; Linux only), µs. */
  threadCpuUs?: number | undefined;
  writes: number;
  bytes: number;
  /** Socket writes (what `writes` became after node:http's corking). */
  flushes: number;
  /** Conversations the server holds in memory. */
  live: number;
  heapUsed: number;
  rss: number;
  external: number;
  /** Whether `gc()` was available for this reading. */
  gcExposed: boolean;
}

export interface TargetOptions {
  glove?: GloveTargetOptions;
  bare?: BareConfig;
  peer?: PeerOptions;
}

export interface Target {
  kind: TargetKind;
  /** Tells two targets of one kind apart in reports (an earlier build of the same server); defaults to kind. */
  label?: string;
  url: string;
  /** The server's process id, when it runs in a process of its own. */
  pid?: number | undefined;
  /** The server process's counters now. */
  stats(): Promise<ServerStats>;
  /** Full GC (twice, when --expose-gc), then the counters. */
  collect(): Promise<ServerStats>;
  /** Changes what the bare server streams (ignored by glove). */
  configure(config: Partial<BareConfig>): Promise<void>;
  /** Starts the V8 CPU profiler in the server's process; `stop` writes a .cpuprofile to `file`. */
  profile(action: "start"): Promise<void>;
  profile(action: "stop", file: string): Promise<void>;
  close(): Promise<void>;
}

type Op =
  | { op: "stats" }
  | { op: "collect" }
  | { op: "configure"; config: Partial<BareConfig> }
  | { op: "profile"; action: "start" }
  | { op: "profile"; action: "stop"; file: string }
  | { op: "exit" };

export async function serve(kind: TargetKind, options: TargetOptions): Promise<Serving> {
  if ((PEER_KINDS as readonly string[]).includes(kind)) {
    if (!options.peer) throw new Error(`${kind} needs options.peer`);
    return servePeer(kind as PeerKind, options.peer);
  }
  if (kind === "glove") {
    const glove = await startGloveTarget(options.glove);
    return {
      url: glove.url,
      live: () => glove.server.liveConversations,
      configure: () => undefined,
      close: () => glove.close(),
    };
  }
  const bare = await startBareTarget(options.bare ?? { events: [], batch: 1 });
  return {
    url: bare.url,
    live: () => bare.liveConversations,
    configure: (c) => bare.configure(c),
    close: () => bare.close(),
  };
}

function readStats(live: number): ServerStats {
  const cpu = process.cpuUsage();
  const memory = process.memoryUsage();
  return {
    cpuUs: cpu.user + cpu.system,
    threadCpuUs: threadCpuUs(),
    writes: writeCounts.writes,
    bytes: writeCounts.bytes,
    flushes: writeCounts.flushes,
    live,
    heapUsed: memory.heapUsed,
    rss: memory.rss,
    external: memory.external,
    gcExposed: typeof (globalThis as { gc?: unknown }).gc === "function",
  };
}

let profiler: Session | undefined;

async function profile(message: Extract<Op, { op: "profile" }>): Promise<void> {
  if (message.action === "start") {
    profiler = new Session();
    profiler.connect();
    await profiler.post("Profiler.enable");
    await profiler.post("Profiler.start");
    return;
  }
  if (!profiler) throw new Error("profile stop without start");
  const { profile: result } = await profiler.post("Profiler.stop");
  profiler.disconnect();
  profiler = undefined;
  await writeFile(message.file, JSON.stringify(result));
}

async function collectGarbage(): Promise<void> {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) return;
  for (let i = 0; i < 3; i++) {
    gc();
    // Let finalizers and weak callbacks run between passes.
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

export async function answer(serving: Serving, message: Op): Promise<unknown> {
  switch (message.op) {
    case "stats":
      return readStats(serving.live());
    case "collect":
      await collectGarbage();
      return readStats(serving.live());
    case "configure":
      serving.configure(message.config);
      return null;
    case "profile":
      await profile(message);
      return null;
    case "exit":
      await serving.close();
      return null;
  }
}

/** The server in this process (for the smoke test; its CPU includes the client's). */
export async function inProcessTarget(kind: TargetKind, options: TargetOptions = {}): Promise<Target> {
  const restore = countWrites();
  const serving = await serve(kind, options);
  return {
    kind,
    url: serving.url,
    stats: async () => (await answer(serving, { op: "stats" })) as ServerStats,
    collect: async () => (await answer(serving, { op: "collect" })) as ServerStats,
    configure: async (config) => void (await answer(serving, { op: "configure", config })),
    profile: async (action: "start" | "stop", file?: string) =>
      void (await answer(
        serving,
        action === "start" ? { op: "profile", action } : { op: "profile", action, file: file! },
      )),
    close: async () => {
      await serving.close();
      restore();
    },
  };
}

export interface SpawnOptions {
  /** Extra node flags for the child, e.g. ["--cpu-prof", "--cpu-prof-dir=prof"]. */
  execArgv?: string[];
  /** A program (and its arguments) the server's node runs under, e.g. valgrind: `wrapper node … child.js`. */
  wrapper?: string[];
  /** Another build's compiled `child.js` (an earlier checkout's bench/dist/server/child.js), for before/after runs. */
  childFile?: string;
  /** The target's label (see Target.label). */
  label?: string;
}

/** The server in a child process running `child.js` (compiled bench only). */
export async function spawnTarget(
  kind: TargetKind,
  options: TargetOptions = {},
  spawnOptions: SpawnOptions = {},
): Promise<Target> {
  const file = spawnOptions.childFile ?? fileURLToPath(new URL("./child.js", import.meta.url));
  const nodeArgs = ["--expose-gc", ...(spawnOptions.execArgv ?? [])];
  const [wrapper, ...wrapperArgs] = spawnOptions.wrapper ?? [];
  const child: ChildProcess = fork(file, [kind], {
    ...(wrapper ? { execPath: wrapper } : {}),
    execArgv: wrapper ? [...wrapperArgs, process.execPath, ...nodeArgs] : nodeArgs,
    env: { ...process.env, BENCH_TARGET: JSON.stringify(options) },
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  let next = 0;
  const pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  let ready: (url: string) => void = () => undefined;
  const started = new Promise<string>((resolve, reject) => {
    ready = resolve;
    child.once("exit", (code) => reject(new Error(`${kind} server exited with ${code} before it was ready`)));
  });
  child.on("message", (message: { type: string; url?: string; id?: number; result?: unknown; error?: string }) => {
    if (message.type === "ready") ready(message.url!);
    else if (message.type === "reply") {
      const waiter = pending.get(message.id!);
      pending.delete(message.id!);
      if (message.error) waiter?.reject(new Error(message.error));
      else waiter?.resolve(message.result);
    }
  });
  child.on("exit", () => {
    for (const waiter of pending.values()) waiter.reject(new Error(`${kind} server exited`));
    pending.clear();
  });
  const call = (message: Op): Promise<unknown> =>
    new Promise((resolve, reject) => {
      const id = next++;
      pending.set(id, { resolve, reject });
      child.send({ id, ...message });
    });
  const url = await started;
  return {
    kind,
    ...(spawnOptions.label !== undefined ? { label: spawnOptions.label } : {}),
    url,
    pid: child.pid,
    stats: async () => (await call({ op: "stats" })) as ServerStats,
    collect: async () => (await call({ op: "collect" })) as ServerStats,
    configure: async (config) => void (await call({ op: "configure", config })),
    profile: async (action: "start" | "stop", file?: string) =>
      void (await call(action === "start" ? { op: "profile", action } : { op: "profile", action, file: file! })),
    close: async () => {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      await call({ op: "exit" }).catch(() => undefined);
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5000))]);
      if (child.exitCode === null) child.kill();
    },
  };
}
