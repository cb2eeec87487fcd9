/**
 * AWS plumbing for the Bedrock adapter, on Web Crypto only (browser-safe):
 * Signature Version 4 request signing and the `application/vnd.amazon.eventstream`
 * binary framing used by ConverseStream.
 */

export interface AwsCredentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
}

/**
 * Resolves credentials per request, e.g. the AWS SDK's `fromNodeProviderChain()`
 * (profiles, SSO, container and instance roles). It is the SDK's own
 * credential-provider shape, and such providers cache and refresh themselves.
 */
export type AwsCredentialsProvider = () => Promise<AwsCredentials>;

const encoder = new TextEncoder();

function hex(buffer: ArrayBuffer): string {
  const bytes = new Uint8Array(buffer);
  let out = "";
  for (const b of bytes) out += b.toString(16).padStart(2, "0");
  return out;
}

async function sha256Hex(data: string | Uint8Array): Promise<string> {
  const bytes = typeof data === "string" ? encoder.encode(data) : data;
  return hex(await crypto.subtle.digest("SHA-256", bytes as Uint8Array<ArrayBuffer>));
}

async function hmac(key: Uint8Array | ArrayBuffer, data: string): Promise<ArrayBuffer> {
  const k = await crypto.subtle.importKey(
    "raw",
    key as Uint8Array<ArrayBuffer>,
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
  return crypto.subtle.sign("HMAC", k, encoder.encode(data));
}

/** RFC 3986 encoding as SigV4 wants it (unreserved characters kept). */
export function awsUriEncode(value: string): string {
  return encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

export interface SignInput {
  method: string;
  /** Full URL; its path must already be URI-encoded once (as sent on the wire). */
  url: string;
  headers: Record<string, string>;
  body: string;
  region: string;
  service: string;
  credentials: AwsCredentials;
  /** Defaults to now. */
  date?: Date;
  /**
   * Encode each path segment once more for the canonical URI (true for every
   * service but S3 — what the AWS SDKs do for bedrock-runtime).
   */
  doubleEncodePath?: boolean;
}

/** Returns the headers to send: the input headers plus host, x-amz-date, security token and Authorization. */
export async function signV4(input: SignInput): Promise<Record<string, string>> {
  const url = new URL(input.url);
  const date = input.date ?? new Date();
  const amzDate = date.toISOString().replace(/[:-]|\.\d{3}/g, "");
  const dateStamp = amzDate.slice(0, 8);
  const headers: Record<string, string> = { ...input.headers, host: url.host, "x-amz-date": amzDate };
  if (input.credentials.sessionToken) headers["x-amz-security-token"] = input.credentials.sessionToken;

  const lower = new Map<string, string>();
  for (const [k, v] of Object.entries(headers)) lower.set(k.toLowerCase(), v.trim().replace(/\s+/g, " "));
  const names = [...lower.keys()].sort();
  const canonicalHeaders = names.map((n) => `${n}:${lower.get(n)}\n`).join("");
  const signedHeaders = names.join(";");
  const path = url.pathname || "/";
  const canonicalUri =
    input.doubleEncodePath === false
      ? path
      : path
          .split("/")
          .map((s) => awsUriEncode(s))
          .join("/");
  const params: Array<[string, string]> = [];
  url.searchParams.forEach((v, k) => params.push([k, v]));
  const query = params
    .map(([k, v]) => [awsUriEncode(k), awsUriEncode(v)] as const)
    .sort(([a, x], [b, y]) => (a < b ? -1 : a > b ? 1 : x < y ? -1 : x > y ? 1 : 0))
    .map(([k, v]) => `${k}=${v}`)
    .join("&");
  const canonicalRequest = [
    input.method,
    canonicalUri,
    query,
    canonicalHeaders,
    signedHeaders,
    await sha256Hex(input.body),
  ].join("\n");
  const scope = `${dateStamp}/${input.region}/${input.service}/aws4_request`;
  const stringToSign = ["AWS4-HMAC-SHA256", amzDate, scope, await sha256Hex(canonicalRequest)].join("\n");
  let key = await hmac(encoder.encode(`AWS4${input.credentials.secretAccessKey}`), dateStamp);
  key = await hmac(key, input.region);
  key = await hmac(key, input.service);
  key = await hmac(key, "aws4_request");
  const signature = hex(await hmac(key, stringToSign));
  headers["authorization"] =
    `AWS4-HMAC-SHA256 Credential=${input.credentials.accessKeyId}/${scope}, SignedHeaders=${signedHeaders}, Signature=${signature}`;
  return headers;
}

// ---- event stream ---------------------------------------------------------

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

export function crc32(bytes: Uint8Array, start = 0, end = bytes.length): number {
  let crc = 0xffffffff;
  for (let i = start; i < end; i++) crc = CRC_TABLE[(crc ^ bytes[i]!) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

export interface EventStreamMessage {
  headers: Record<string, string | number | boolean>;
  payload: Uint8Array;
}

export class EventStreamError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "EventStreamError";
  }
}

/** Decodes `application/vnd.amazon.eventstream` frames incrementally, checking both CRCs. */
export class EventStreamDecoder {
  private buffer: Uint8Array = new Uint8Array(0);

  /** Adds bytes; returns every message now complete. */
  push(chunk: Uint8Array): EventStreamMessage[] {
    if (this.buffer.length === 0) this.buffer = chunk;
    else {
      const merged = new Uint8Array(this.buffer.length + chunk.length);
      merged.set(this.buffer);
      merged.set(chunk, this.buffer.length);
      this.buffer = merged;
    }
    const out: EventStreamMessage[] = [];
    while (this.buffer.length >= 12) {
      const view = new DataView(this.buffer.buffer, this.buffer.byteOffset, this.buffer.byteLength);
      const total = view.getUint32(0);
      const headersLength = view.getUint32(4);
      if (crc32(this.buffer, 0, 8) !== view.getUint32(8))
        throw new EventStreamError("event stream prelude CRC mismatch");
      if (total < 16 || headersLength > total - 16)
        throw new EventStreamError(`invalid event stream frame length ${total}`);
      if (this.buffer.length < total) break;
      if (crc32(this.buffer, 0, total - 4) !== view.getUint32(total - 4))
        throw new EventStreamError("event stream message CRC mismatch");
      const headers = decodeHeaders(this.buffer.subarray(12, 12 + headersLength));
      const payload = this.buffer.slice(12 + headersLength, total - 4);
      out.push({ headers, payload });
      this.buffer = this.buffer.subarray(total);
    }
    return out;
  }

  /** Bytes left over: a frame was cut short when this is non-zero at the end of the stream. */
  get pending(): number {
    return this.buffer.length;
  }
}

const decoder = new TextDecoder();

function decodeHeaders(bytes: Uint8Array): Record<string, string | number | boolean> {
  const headers: Record<string, string | number | boolean> = {};
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let i = 0;
  while (i < bytes.length) {
    const nameLength = bytes[i]!;
    const name = decoder.decode(bytes.subarray(i + 1, i + 1 + nameLength));
    i += 1 + nameLength;
    const type = bytes[i]!;
    i += 1;
    switch (type) {
      case 0:
        headers[name] = true;
        break;
      case 1:
        headers[name] = false;
        break;
      case 2:
        headers[name] = view.getInt8(i);
        i += 1;
        break;
      case 3:
        headers[name] = view.getInt16(i);
        i += 2;
        break;
      case 4:
        headers[name] = view.getInt32(i);
        i += 4;
        break;
      case 5:
      case 8:
        headers[name] = Number(view.getBigInt64(i));
        i += 8;
        break;
      case 6:
      case 7: {
        const length = view.getUint16(i);
        i += 2;
        headers[name] = type === 7 ? decoder.decode(bytes.subarray(i, i + length)) : "<bytes>";
        i += length;
        break;
      }
      case 9:
        headers[name] = "<uuid>";
        i += 16;
        break;
      default:
        throw new EventStreamError(`unknown event stream header type ${type}`);
    }
  }
  return headers;
}

/** Encodes one frame with string headers (used by tests and fake servers). */
export function encodeEventStreamMessage(headers: Record<string, string>, payload: Uint8Array | string): Uint8Array {
  const body = typeof payload === "string" ? encoder.encode(payload) : payload;
  const parts: Uint8Array[] = [];
  for (const [name, value] of Object.entries(headers)) {
    const n = encoder.encode(name);
    const v = encoder.encode(value);
    const h = new Uint8Array(1 + n.length + 1 + 2 + v.length);
    h[0] = n.length;
    h.set(n, 1);
    h[1 + n.length] = 7;
    new DataView(h.buffer).setUint16(2 + n.length, v.length);
    h.set(v, 4 + n.length);
    parts.push(h);
  }
  const headersLength = parts.reduce((s, p) => s + p.length, 0);
  const total = 12 + headersLength + body.length + 4;
  const out = new Uint8Array(total);
  const view = new DataView(out.buffer);
  view.setUint32(0, total);
  view.setUint32(4, headersLength);
  view.setUint32(8, crc32(out, 0, 8));
  let offset = 12;
  for (const p of parts) {
    out.set(p, offset);
    offset += p.length;
  }
  out.set(body, offset);
  view.setUint32(total - 4, crc32(out, 0, total - 4));
  return out;
}
