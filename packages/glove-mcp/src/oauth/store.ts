import { randomBytes } from "node:crypto";
import { mkdir, readFile, rename, rm, writeFile } from "node:fs/promises";
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
 * are renamed over the target, so readers never see a partial file.
 */
export class FsOAuthStore implements OAuthStore {
  private queue: Promise<unknown> = Promise.resolve();
  constructor(readonly filePath: string) {}

  private async readAll(): Promise<Record<string, McpOAuthRecord>> {
    try {
      return JSON.parse(await readFile(this.filePath, "utf8")) as Record<string, McpOAuthRecord>;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return {};
      throw error;
    }
  }

  private async writeAll(all: Record<string, McpOAuthRecord>): Promise<void> {
    const dir = path.dirname(this.filePath);
    await mkdir(dir, { recursive: true, mode: 0o700 });
    const tmp = path.join(dir, `.${path.basename(this.filePath)}.${randomBytes(6).toString("hex")}.tmp`);
    try {
      await writeFile(tmp, JSON.stringify(all, null, 2), { mode: 0o600 });
      await rename(tmp, this.filePath);
    } catch (error) {
      await rm(tmp, { force: true });
      throw error;
    }
  }

  private serial<T>(op: () => Promise<T>): Promise<T> {
    const next = this.queue.then(op, op);
    this.queue = next.catch(() => undefined);
    return next;
  }

  async get(key: string): Promise<McpOAuthRecord> {
    return (await this.readAll())[key] ?? {};
  }
  set(key: string, record: McpOAuthRecord): Promise<void> {
    return this.serial(async () => {
      const all = await this.readAll();
      all[key] = record;
      await this.writeAll(all);
    });
  }
  delete(key: string): Promise<void> {
    return this.serial(async () => {
      const all = await this.readAll();
      delete all[key];
      await this.writeAll(all);
    });
  }
}
