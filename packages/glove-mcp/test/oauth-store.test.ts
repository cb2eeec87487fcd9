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
    await Promise.all(Array.from({ length: 20 }, (_, i) => store.set(`k${i}`, { tokens: { access_token: `t${i}`, token_type: "Bearer" } })));
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readdirSync(dir)).toEqual(["tokens.json"]);
    const again = new FsOAuthStore(file);
    expect(await again.get("k7")).toEqual({ tokens: { access_token: "t7", token_type: "Bearer" } });
    await again.delete("k7");
    expect(await again.get("k7")).toEqual({});
    expect(await again.get("k8")).toEqual({ tokens: { access_token: "t8", token_type: "Bearer" } });
  });

  it("MemoryOAuthStore copies records", async () => {
    const store = new MemoryOAuthStore();
    const record = { tokens: { access_token: "x", token_type: "Bearer" } };
    await store.set("k", record);
    record.tokens.access_token = "changed";
    expect(await store.get("k")).toEqual({ tokens: { access_token: "x", token_type: "Bearer" } });
  });
});
