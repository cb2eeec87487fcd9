import { mkdtempSync, readdirSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { FsOAuthStore, MemoryOAuthStore } from "../src/oauth/index.js";

describe("OAuth stores", () => {
  it("FsOAuthStore writes mode 0600 atomically and round-trips", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "oauth-store-"));
    const file = path.join(dir, "tokens.json");
    const store = new FsOAuthStore(file);
    expect(await store.get("a")).toEqual({});
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        store.set(`k${i}`, { tokens: { access_token: `t${i}`, token_type: "Bearer" } }),
      ),
    );
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readdirSync(dir)).toEqual(["tokens.json"]);
    const again = new FsOAuthStore(file);
    expect(await again.get("k7")).toEqual({ tokens: { access_token: "t7", token_type: "Bearer" } });
    await again.delete("k7");
    expect(await again.get("k7")).toEqual({});
    expect(await again.get("k8")).toEqual({ tokens: { access_token: "t8", token_type: "Bearer" } });
  });

  it("two FsOAuthStore instances on one file lose no update", async () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), "oauth-store-")), "tokens.json");
    const a = new FsOAuthStore(file);
    const b = new FsOAuthStore(file);
    await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        (i % 2 ? a : b).set(`k${i}`, { tokens: { access_token: `t${i}`, token_type: "Bearer" } }),
      ),
    );
    const reader = new FsOAuthStore(file);
    for (let i = 0; i < 30; i++) expect((await reader.get(`k${i}`)).tokens?.access_token).toBe(`t${i}`);
  });

  it("keys like __proto__ and constructor are ordinary keys", async () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), "oauth-store-")), "tokens.json");
    const store = new FsOAuthStore(file);
    expect(await store.get("__proto__")).toEqual({});
    expect(await store.get("constructor")).toEqual({});
    await store.set("__proto__", { state: "s1" });
    await store.set("constructor", { state: "s2" });
    const again = new FsOAuthStore(file);
    expect(await again.get("__proto__")).toEqual({ state: "s1" });
    expect(await again.get("constructor")).toEqual({ state: "s2" });
    expect(await again.get("toString")).toEqual({});
    await again.delete("__proto__");
    expect(await again.get("__proto__")).toEqual({});
  });

  it("MemoryOAuthStore copies records", async () => {
    const store = new MemoryOAuthStore();
    const record = { tokens: { access_token: "x", token_type: "Bearer" } };
    await store.set("k", record);
    record.tokens.access_token = "changed";
    expect(await store.get("k")).toEqual({ tokens: { access_token: "x", token_type: "Bearer" } });
  });
});
