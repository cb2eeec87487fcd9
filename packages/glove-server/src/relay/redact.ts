/**
 * Secret redaction for everything the relay logs. Provider error bodies carry
 * what the relay must never repeat: gateways echo request headers (the
 * server's key), debug pages quote tokens. The relay's log gets them with every
 * secret replaced by "[redacted]"; this file is the one place that decides what
 * counts as a secret.
 */
import { getAvailableProviders } from "glove-core";

/** What stands in for a secret. */
export const REDACTED = "[redacted]";

/** Configured values shorter than this are not treated as keys: replacing "abc" everywhere would garble the log. */
const MIN_SECRET_LENGTH = 8;
/** How deep nested causes and objects are copied; deeper values are replaced, not walked. */
const MAX_DEPTH = 5;

/** Well-known credential shapes, each with what it is replaced by. */
const PATTERNS: ReadonlyArray<readonly [RegExp, string]> = [
  // OpenAI (sk-, sk-proj-), Anthropic (sk-ant-), OpenRouter (sk-or-) and others; `*` covers masked echoes.
  [/\bsk-[A-Za-z0-9*_-]{4,}/g, REDACTED],
  [/\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]+/gi, `$1 ${REDACTED}`],
  // AWS access key ids (long-term AKIA, temporary ASIA).
  [/\b(?:AKIA|ASIA)[A-Z0-9]{16}\b/g, REDACTED],
  // Google API keys.
  [/\bAIza[0-9A-Za-z_-]{20,}/g, REDACTED],
  // JSON Web Tokens.
  [/\beyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]*/g, REDACTED],
  // `api_key=…`, `"x-api-key": "…"`, `secret: …`, `aws_secret_access_key = …`.
  [
    /((?:api[_-]?key|secret(?:[_-]?access[_-]?key)?|password|passwd|token|authorization)["']?\s*[:=]\s*["']?)(?!\[redacted\]|Bearer\b|Basic\b)[^\s"',;}]+/gi,
    `$1${REDACTED}`,
  ],
];

/** Replaces secrets in a string. */
export type Redactor = (text: string) => string;

/** A redactor for the well-known shapes and these exact values (the server's own keys). */
export function createRedactor(secrets: Iterable<string | undefined>): Redactor {
  const exact = [
    ...new Set([...secrets].filter((s): s is string => typeof s === "string" && s.length >= MIN_SECRET_LENGTH)),
  ]
    // Longest first, so a key that contains another is replaced whole.
    .sort((a, b) => b.length - a.length);
  return (text) => {
    let out = text;
    for (const secret of exact) out = out.split(secret).join(REDACTED);
    for (const [pattern, replacement] of PATTERNS) out = out.replace(pattern, replacement);
    return out;
  };
}

/** The relay options that can hold secrets (a part of ModelRelayOptions). */
export interface RelaySecretSources {
  redact?: readonly string[] | undefined;
  apiKey?: string | undefined;
  provider: unknown;
  adapterOptions?: { headers?: Readonly<Record<string, string>> | undefined } | undefined;
}

/**
 * The server's own secrets the relay knows of: the `apiKey` option, the named
 * provider's key variable when `apiKey` is unset, AWS secrets for Bedrock, header
 * values that look like credentials, and the `redact` option.
 */
export function relaySecrets(options: RelaySecretSources): string[] {
  const secrets = [...(options.redact ?? [])];
  if (options.apiKey) secrets.push(options.apiKey);
  if (typeof options.provider === "string") {
    const id = options.provider.trim().toLowerCase();
    const envVar = getAvailableProviders().find((p) => p.id === id)?.envVar;
    const names =
      id === "bedrock"
        ? ["AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN", "AWS_BEARER_TOKEN_BEDROCK"]
        : [];
    if (envVar && !options.apiKey) names.push(envVar);
    for (const name of names) secrets.push(process.env[name] ?? "");
  }
  for (const [name, value] of Object.entries(options.adapterOptions?.headers ?? {})) {
    if (/auth|key|token|secret/i.test(name)) secrets.push(value);
  }
  return secrets;
}

/**
 * A copy of `value` fit for a log: strings redacted; errors copied with the same
 * prototype (so `ProviderError.isInstance` still holds) and every string field,
 * the stack and the cause chain redacted; plain objects and arrays walked.
 */
export function redactValue(value: unknown, redact: Redactor, depth = 0): unknown {
  if (typeof value === "string") return redact(value);
  if (typeof value !== "object" || value === null) return value;
  if (depth >= MAX_DEPTH) return REDACTED;
  if (Array.isArray(value)) return value.map((item) => redactValue(item, redact, depth + 1));
  if (value instanceof Error) return redactError(value, redact, depth);
  const proto = Object.getPrototypeOf(value) as unknown;
  // Class instances other than errors (requests, sockets…) are not walked: their fields are not ours to copy.
  if (proto !== Object.prototype && proto !== null) return `[${value.constructor?.name ?? "object"}]`;
  const copy: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) copy[key] = redactValue(item, redact, depth + 1);
  return copy;
}

function redactError(error: Error, redact: Redactor, depth: number): Error {
  const copy = Object.create(Object.getPrototypeOf(error) as object) as Error;
  for (const key of Reflect.ownKeys(error)) {
    const descriptor = Object.getOwnPropertyDescriptor(error, key)!;
    if (key === "stack" || !("value" in descriptor)) continue;
    Object.defineProperty(copy, key, { ...descriptor, value: redactValue(descriptor.value, redact, depth + 1) });
  }
  // Written as an own data property: the stack repeats the message, so it is redacted too.
  Object.defineProperty(copy, "stack", {
    value: redact(String(error.stack ?? "")),
    writable: true,
    configurable: true,
    enumerable: false,
  });
  return copy;
}

/** Wraps a relay's log so nothing it is handed reaches it unredacted. A throwing log is the app's bug, left to surface. */
export function redactingLog(
  log: (message: string, error: unknown) => void,
  redact: Redactor,
): (message: string, error: unknown) => void {
  return (message, error) => log(redact(message), redactValue(error, redact));
}
