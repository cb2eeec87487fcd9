/**
 * What the model reads of a tool's structured content: the same JSON with binary payloads
 * (MCP image / audio items, resource `blob`s, `data:` URIs and long bare base64 strings)
 * replaced by short markers, so a screenshot does not cost the model tens of thousands of
 * tokens of noise. The originals stay in the tool result's `renderData`.
 */

/** Bare strings at least this long made only of base64 characters are treated as binary. */
const BASE64_MIN_LENGTH = 512;
const BASE64 = /^[A-Za-z0-9+/\-_]+={0,2}$/;
const DATA_URI = /^data:([^;,]*)(?:;[^,]*)?;base64,/i;

function approxBytes(base64Length: number): number {
  return Math.floor((base64Length * 3) / 4);
}

function stringMarker(value: string): string | undefined {
  const dataUri = DATA_URI.exec(value);
  if (dataUri) return `[${dataUri[1] || "binary"} data, ${approxBytes(value.length - dataUri[0].length)} bytes]`;
  if (value.length >= BASE64_MIN_LENGTH && BASE64.test(value))
    return `[base64 data, ${approxBytes(value.length)} bytes]`;
  return undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function objectMarker(value: Record<string, unknown>): Record<string, unknown> | undefined {
  // An MCP image/audio content item: keep its type and mime type, drop the bytes.
  if ((value.type === "image" || value.type === "audio") && typeof value.data === "string") {
    const { data, ...rest } = value;
    return {
      ...rest,
      data:
        `[${value.type} ${typeof value.mimeType === "string" ? value.mimeType : ""}`.trimEnd() +
        `, ${approxBytes(data.length)} bytes]`,
    };
  }
  // An MCP blob resource: keep the uri, drop the bytes.
  if (typeof value.blob === "string") {
    const { blob, ...rest } = value;
    return {
      ...rest,
      blob: `[blob${typeof value.mimeType === "string" ? ` ${value.mimeType}` : ""}, ${approxBytes(blob.length)} bytes]`,
    };
  }
  return undefined;
}

/** A copy of `value` with binary payloads replaced by markers; values without any are returned as is. */
export function replaceBinaryPayloads<T>(value: T): T {
  return walk(value, 0) as T;
}

function walk(value: unknown, depth: number): unknown {
  if (depth > 64) return value; // deeper than any real payload; avoid runaway recursion
  if (typeof value === "string") return stringMarker(value) ?? value;
  if (Array.isArray(value)) {
    let changed = false;
    const out = value.map((item) => {
      const next = walk(item, depth + 1);
      if (next !== item) changed = true;
      return next;
    });
    return changed ? out : value;
  }
  if (isRecord(value)) {
    const marked = objectMarker(value);
    const source = marked ?? value;
    let changed = marked !== undefined;
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(source)) {
      const next = walk(item, depth + 1);
      if (next !== item) changed = true;
      // defineProperty: a "__proto__" key stays an own property instead of setting the prototype.
      Object.defineProperty(out, key, { value: next, enumerable: true, writable: true, configurable: true });
    }
    return changed ? out : value;
  }
  return value;
}
