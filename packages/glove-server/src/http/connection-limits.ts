import { ConfigurationError } from "glove-core";

/**
 * How long connections may take and how many may be open: without these, sockets that send
 * nothing, headers or bodies trickled a byte at a time, and clients that stop reading would each
 * hold a connection for as long as they like.
 */
export interface ConnectionLimits {
  /**
   * Time to receive a request's headers, from the connection's opening (so a connection that sends
   * nothing is closed too) or from the first byte of a later request on it. Default 15 000 ms;
   * slower clients get 408 and are disconnected. A connection idle between requests follows
   * `keepAliveTimeoutMs` instead.
   */
  headersTimeoutMs?: number;
  /**
   * Time to receive a whole request, body included. Only the request: a response (an event
   * stream) may go on for hours. Default 60 000 ms. At least `headersTimeoutMs`.
   */
  requestTimeoutMs?: number;
  /** How long a connection may wait for its next request once an answer is out. Default 5000 ms. */
  keepAliveTimeoutMs?: number;
  /**
   * A connection with no traffic either way for this long closes: a client that stopped
   * reading, a handler that never answers. Streams stay open as long as their heartbeats are more
   * frequent (glove-server defaults it to the larger of 120 000 ms and 4 × `events.heartbeatMs`).
   * Default 120 000 ms.
   */
  socketIdleTimeoutMs?: number;
  /** Connections open at once; more are closed as they arrive. Default 10 000. */
  maxConnections?: number;
}

export const CONNECTION_DEFAULTS: Readonly<Required<ConnectionLimits>> = {
  headersTimeoutMs: 15_000,
  requestTimeoutMs: 60_000,
  keepAliveTimeoutMs: 5_000,
  socketIdleTimeoutMs: 120_000,
  maxConnections: 10_000,
};

/** The limits with defaults applied; throws ConfigurationError naming a wrong one. */
export function resolveConnectionLimits(options: ConnectionLimits): Required<ConnectionLimits> {
  const resolved = { ...CONNECTION_DEFAULTS };
  for (const name of Object.keys(CONNECTION_DEFAULTS) as Array<keyof ConnectionLimits>) {
    const value = options[name];
    if (value === undefined) continue;
    if (!Number.isSafeInteger(value) || value <= 0) {
      throw new ConfigurationError(`listen: ${name} must be a positive whole number, got ${JSON.stringify(value)}.`);
    }
    resolved[name] = value;
  }
  if (resolved.headersTimeoutMs > resolved.requestTimeoutMs) {
    // Only the request timeout was lowered: the headers are part of the request.
    if (options.headersTimeoutMs === undefined) resolved.headersTimeoutMs = resolved.requestTimeoutMs;
    else
      throw new ConfigurationError(
        `listen: headersTimeoutMs (${resolved.headersTimeoutMs}) cannot exceed requestTimeoutMs (${resolved.requestTimeoutMs}): the headers are part of the request.`,
      );
  }
  return resolved;
}

/**
 * The idle timeout for a server whose streams send a heartbeat every `heartbeatMs`: the default
 * stretched to four heartbeats, and a ConfigurationError for one that would cut quiet streams
 * between two heartbeats.
 */
export function idleTimeoutFor(heartbeatMs: number, options: ConnectionLimits = {}): number {
  const given = options.socketIdleTimeoutMs;
  if (given === undefined) return Math.max(CONNECTION_DEFAULTS.socketIdleTimeoutMs, 4 * heartbeatMs);
  if (given < 2 * heartbeatMs) {
    throw new ConfigurationError(
      `listen: socketIdleTimeoutMs (${given}) must be at least twice the stream heartbeat (${heartbeatMs} ms), or quiet event streams are closed between heartbeats.`,
    );
  }
  return given;
}
