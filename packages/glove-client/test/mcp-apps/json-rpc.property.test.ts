/** Messages an app posts to its host: any value is read without throwing, only JSON-RPC 2.0 counts. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { readMessage } from "../../src/mcp-apps/json-rpc.js";

describe("readMessage", () => {
  it("never throws, and reads only jsonrpc 2.0 messages with a string method", () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.anything(),
          fc.record(
            { jsonrpc: fc.constantFrom("2.0", "1.0"), id: fc.anything(), method: fc.anything(), params: fc.anything() },
            { requiredKeys: [] },
          ),
        ),
        (data) => {
          const message = readMessage(data);
          if (!message) return;
          const raw = data as { jsonrpc: unknown; method: unknown; id?: unknown };
          expect(raw.jsonrpc).toBe("2.0");
          expect(typeof raw.method).toBe("string");
          if ("request" in message) {
            expect(["string", "number"]).toContain(typeof message.request.id);
            expect(typeof message.request.params).toBe("object");
          } else {
            expect("id" in raw).toBe(false);
          }
        },
      ),
    );
  });

  it("tells requests from notifications and drops invalid ids", () => {
    expect(readMessage({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "x" } })).toEqual({
      request: { id: 1, method: "tools/call", params: { name: "x" } },
    });
    expect(readMessage({ jsonrpc: "2.0", method: "ui/notifications/initialized" })).toEqual({
      notification: { method: "ui/notifications/initialized", params: {} },
    });
    expect(readMessage({ jsonrpc: "2.0", id: { x: 1 }, method: "tools/call" })).toBeUndefined();
    expect(readMessage({ jsonrpc: "2.0", id: 3, result: {} })).toBeUndefined();
  });
});
