import { ServerResponse } from "node:http";
import { Socket } from "node:net";

/**
 * Response body writes and what reaches the sockets, counted the same way on both servers:
 * `writes` are `res.write` calls; `flushes` are the socket writes they become (node:http corks
 * a socket for the rest of the tick, so writes made without yielding to the event loop leave as
 * one `writev`).
 */
export interface WriteCounts {
  writes: number;
  bytes: number;
  flushes: number;
}

export const writeCounts: WriteCounts = { writes: 0, bytes: 0, flushes: 0 };

let users = 0;
let restore: (() => void) | undefined;

type Method = (...args: unknown[]) => unknown;

function wrap(proto: object, name: string, count: (args: unknown[]) => void): () => void {
  const target = proto as Record<string, Method>;
  const original = target[name]!;
  target[name] = function (this: unknown, ...args: unknown[]) {
    count(args);
    return original.apply(this, args);
  };
  return () => {
    target[name] = original;
  };
}

/** Counts in this process (one increment per call); the result stops counting once every caller called it. */
export function countWrites(): () => void {
  users++;
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    if (--users === 0) restore?.();
  };
  if (restore) return release;
  const undo = [
    wrap(ServerResponse.prototype, "write", (args) => {
      const chunk = args[0] as string | Uint8Array;
      writeCounts.writes++;
      writeCounts.bytes += typeof chunk === "string" ? chunk.length : chunk.byteLength;
    }),
    wrap(Socket.prototype, "_write", () => void writeCounts.flushes++),
    wrap(Socket.prototype, "_writev", () => void writeCounts.flushes++),
  ];
  restore = () => {
    for (const u of undo) u();
    restore = undefined;
  };
  return release;
}
