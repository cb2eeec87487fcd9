let counter = 0;

/**
 * A fresh id for client-made things (message ids, session ids). Only ever called from event
 * handlers and effects, never during render, so server and client renders cannot disagree.
 * `crypto.randomUUID` is missing on plain-http pages; the fallback is unique enough for a tab.
 */
export function newId(prefix = ""): string {
  const uuid = globalThis.crypto?.randomUUID?.();
  if (uuid) return prefix + uuid;
  counter = (counter + 1) % Number.MAX_SAFE_INTEGER;
  return `${prefix}${Date.now().toString(36)}-${counter.toString(36)}-${Math.random().toString(36).slice(2, 10)}`;
}
