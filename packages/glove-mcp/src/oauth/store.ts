import { randomBytes } from "node:crypto";
import { mkdir, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import type { OAuthDiscoveryState } from "@modelcontextprotocol/sdk/client/auth.js";
import type { OAuthClientInformationMixed, OAuthTokens } from "@modelcontextprotocol/sdk/shared/auth.js";

/** Persisted OAuth state for one MCP server (one `key`). Every field is plain JSON. */
export interface McpOAuthRecord {
  /** The tokens of the last exchange or refresh; `access_token` is the bearer token. */
  tokens?: OAuthTokens;
  /** The registered (or pre-registered) client. */
  clientInformation?: OAuthClientInformationMixed;
  /** PKCE verifier of the authorization in progress. */
  codeVerifier?: string;
  /** `state` of the authorization in progress, checked on the callback. */
  state?: string;
  /**
   * The scope the authorization in progress asked for: the granted scope when the token response
   * leaves `scope` out (RFC 6749 §5.1), so later step-ups know what the token holds.
   */
  requestedScope?: string;
  /** Cached discovery results (resource and authorization-server metadata). */
  discovery?: OAuthDiscoveryState;
}

/** Where OAuth state lives, by key (one key per MCP server, or per user and server). */
export interface OAuthStore {
  /** The record for `key`; an empty record when there is none. */
  get(key: string): Promise<McpOAuthRecord>;
  set(key: string, record: McpOAuthRecord): Promise<void>;
  delete(key: string): Promise<void>;
}

/** In-process store; records are deep-copied in and out. */
export class MemoryOAuthStore implements OAuthStore {
  private readonly records = new Map<string, string>();
  async get(key: string): Promise<McpOAuthRecord> {
    const raw = this.records.get(key);
    return raw === undefined ? {} : (JSON.parse(raw) as McpOAuthRecord);
  }
  async set(key: string, record: McpOAuthRecord): Promise<void> {
    this.records.set(key, JSON.stringify(record));
  }
  async delete(key: string): Promise<void> {
    this.records.delete(key);
  }
}

/**
 * One JSON file holding every key. Writes go to a temp file (mode 0600) in the same directory and
 * are renamed over the target, so readers never see a partial file. Every read-modify-write holds
 * a lock directory next to the file, so several instances or processes on one file never lose an
 * update; keys are kept in a Map, so names like `__proto__` are ordinary keys.
 */
export class FsOAuthStore implements OAuthStore {
  private queue: Promise<unknown> = Promise.resolve();
  constructor(readonly filePath: string) {}

  private async readAll(): Promise<Map<string, McpOAuthRecord>> {
    let raw: string;
    try {
      raw = await readFile(this.filePath, "utf8");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return new Map();
      throw error;
    }
    const parsed = JSON.parse(raw) as unknown;
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) return new Map();
    return new Map(Object.entries(parsed as Record<string, McpOAuthRecord>));
  }

  private async writeAll(all: Map<string, McpOAuthRecord>): Promise<void> {
    const dir = path.dirname(this.filePath);
    await mkdir(dir, { recursive: true, mode: 0o700 });
    const tmp = path.join(dir, `.${path.basename(this.filePath)}.${randomBytes(6).toString("hex")}.tmp`);
    try {
      // Object.fromEntries defines own properties: "__proto__" is written as a key, not a prototype.
      await writeFile(tmp, JSON.stringify(Object.fromEntries(all), null, 2), { mode: 0o600 });
      await rename(tmp, this.filePath);
    } catch (error) {
      await rm(tmp, { force: true });
      throw error;
    }
  }

  /** One update at a time in this instance, and across instances and processes through the lock. */
  private serial<T>(op: () => Promise<T>): Promise<T> {
    const locked = () => withFileLock(this.filePath, op);
    const next = this.queue.then(locked, locked);
    this.queue = next.catch(() => undefined);
    return next;
  }

  async get(key: string): Promise<McpOAuthRecord> {
    return (await this.readAll()).get(key) ?? {};
  }
  set(key: string, record: McpOAuthRecord): Promise<void> {
    return this.serial(async () => {
      const all = await this.readAll();
      all.set(key, record);
      await this.writeAll(all);
    });
  }
  delete(key: string): Promise<void> {
    return this.serial(async () => {
      const all = await this.readAll();
      all.delete(key);
      await this.writeAll(all);
    });
  }
}

/** A lock older than this was left by a process that died while holding it. */
const STALE_LOCK_MS = 10_000;

async function withFileLock<T>(filePath: string, op: () => Promise<T>): Promise<T> {
  const lock = `${filePath}.lock`;
  await mkdir(path.dirname(filePath), { recursive: true, mode: 0o700 });
  const giveUpAt = Date.now() + 30_000;
  for (;;) {
    try {
      await mkdir(lock);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      const since = await stat(lock).then(
        (s) => Date.now() - s.mtimeMs,
        () => 0,
      );
      if (since > STALE_LOCK_MS) await rm(lock, { recursive: true, force: true });
      else if (Date.now() > giveUpAt)
        throw new Error(`Timed out waiting for the lock ${lock}; remove it if no other process uses ${filePath}.`);
      else await new Promise((resolve) => setTimeout(resolve, 5 + Math.random() * 20));
    }
  }
  try {
    return await op();
  } finally {
    await rm(lock, { recursive: true, force: true });
  }
}
