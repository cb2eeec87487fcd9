import { connect } from "node:net";
import { describe, expect, it } from "vitest";
import { listenNode } from "../src/http/node-listen.js";
import { sseResponse } from "../src/http/sse-response.js";
import { PROMPT_WAIT_MS } from "../../../test-support/timeouts.js";

describe("back-pressure on event streams", () => {
  it("stops reading events for a client that stopped reading, so the server buffers a bounded amount", async () => {
    const chunk = `data: ${"x".repeat(64 * 1024)}\n\n`;
    let reads = 0;
    let cancelled = false;
    // A source that would produce forever: only the socket's back-pressure can stop it.
    const listening = await listenNode(async () =>
      sseResponse({
        read: async () => {
          reads++;
          return chunk;
        },
        cancel: () => void (cancelled = true),
      }),
    );
    const socket = connect(listening.port, "127.0.0.1");
    await new Promise<void>((resolve) => socket.once("connect", () => resolve()));
    socket.write("GET /events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
    socket.pause(); // a client that never reads
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const readsWhileStalled = reads;
    await new Promise((resolve) => setTimeout(resolve, 500));
    // Kernel and socket buffers hold a few MB at most; without back-pressure this would be
    // hundreds of MB by now.
    expect(readsWhileStalled * chunk.length).toBeLessThan(64 * 1024 * 1024);
    expect(reads).toBe(readsWhileStalled);
    socket.destroy();
    for (const end = Date.now() + PROMPT_WAIT_MS; Date.now() < end && !cancelled;)
      await new Promise((resolve) => setTimeout(resolve, 10));
    expect(cancelled).toBe(true);
    await listening.close();
  });
});
