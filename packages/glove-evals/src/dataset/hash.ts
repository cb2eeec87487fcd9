import { createHash } from "node:crypto";

/** A short content hash, "sha256:" and 16 hex digits: a dataset's version, an item's default id. */
export function contentHash(content: string | Uint8Array): string {
  return `sha256:${createHash("sha256").update(content).digest("hex").slice(0, 16)}`;
}

/** JSON with object keys sorted, so equal values hash equally whatever their key order. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === "object" && !Array.isArray(v)
      ? Object.fromEntries(
          Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
        )
      : v,
  );
}
