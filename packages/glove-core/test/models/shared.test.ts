import { describe, expect, it } from "vitest";
import { z } from "zod";
import type { Tool } from "glove-core";
import { SSEParser, type SSEEvent } from "../../src/models/shared/sse.js";
import { parseErrorBody, retryAfterMs } from "../../src/models/shared/transport.js";
import {
  argsObject,
  parseArgs,
  toolJsonSchema,
  toolResultPayload,
  userParts,
} from "../../src/models/shared/messages.js";

function parse(...chunks: string[]): SSEEvent[] {
  const out: SSEEvent[] = [];
  const p = new SSEParser((e) => out.push(e));
  for (const c of chunks) p.feed(c);
  p.end();
  return out;
}

describe("SSE parser", () => {
  it("handles LF, CRLF and CR endings, also split between chunks", () => {
    expect(parse("data: a\n\ndata: b\r\n\r\ndata: c\r\rdata: d\r", "\n\r\n")).toEqual([
      { event: "message", data: "a" },
      { event: "message", data: "b" },
      { event: "message", data: "c" },
      { event: "message", data: "d" },
    ]);
  });

  it("joins multi-line data, keeps event names and ids, ignores comments and retry", () => {
    expect(parse(': ping\n\nevent: message_start\nid: 7\nretry: 10\ndata: {"a":\ndata:1}\n\n')).toEqual([
      { event: "message_start", id: "7", data: '{"a":\n1}' },
    ]);
  });

  it("drops a cut-off last line but dispatches complete lines lacking the final blank line", () => {
    expect(parse("data: [DONE]\n")).toEqual([{ event: "message", data: "[DONE]" }]);
    expect(parse('data: {"partial')).toEqual([]);
  });

  it("LF-only text split anywhere gives the same events as whole", () => {
    const text = ': ping\n\nevent: x\ndata: {"a":\ndata: 1}\n\ndata: 2\n\ndata: [DONE]\n';
    const whole = parse(text);
    expect(whole).toEqual([
      { event: "x", data: '{"a":\n1}' },
      { event: "message", data: "2" },
      { event: "message", data: "[DONE]" },
    ]);
    for (let cut = 0; cut <= text.length; cut++) expect(parse(text.slice(0, cut), text.slice(cut))).toEqual(whole);
  });

  it("byte-at-a-time feeding gives the same events", () => {
    const text = "event: x\r\ndata: 1\r\n\r\ndata: 2\n\n";
    expect(parse(...text.split(""))).toEqual(parse(text));
  });
});

describe("transport helpers", () => {
  it("retry-after in seconds, ms and HTTP date", () => {
    expect(retryAfterMs(new Headers({ "retry-after": "2" }))).toBe(2000);
    expect(retryAfterMs(new Headers({ "retry-after-ms": "150", "retry-after": "9" }))).toBe(150);
    const now = Date.parse("2026-01-01T00:00:00Z");
    expect(retryAfterMs(new Headers({ "retry-after": "Thu, 01 Jan 2026 00:00:05 GMT" }), now)).toBe(5000);
    expect(retryAfterMs(new Headers())).toBeUndefined();
  });

  it("reads OpenAI, Anthropic and AWS error bodies", () => {
    expect(parseErrorBody('{"error":{"message":"m1","type":"t1"}}')).toEqual({ message: "m1", code: "t1" });
    expect(parseErrorBody('{"type":"error","error":{"type":"overloaded_error","message":"m2"}}')).toEqual({
      message: "m2",
      code: "overloaded_error",
    });
    expect(parseErrorBody('{"message":"m3"}')).toEqual({ message: "m3" });
    expect(parseErrorBody("<html>Bad Gateway</html>")).toEqual({ message: "<html>Bad Gateway</html>" });
  });
});

describe("message helpers", () => {
  it("tool result payload keeps data, status and message only", () => {
    expect(
      toolResultPayload({ status: "success", data: 1, renderData: "x", summary: "s", generateSummaryArgs: {} }),
    ).toEqual({ status: "success", data: 1 });
    expect(toolResultPayload({ status: "aborted", data: undefined, message: "stopped" })).toEqual({
      status: "aborted",
      data: null,
      message: "stopped",
    });
  });

  it("tool schema: zod via z.toJSONSchema without $schema, jsonSchema verbatim, cached", () => {
    const tool: Tool<unknown> = {
      name: "t",
      description: "d",
      input_schema: z.object({ a: z.string().describe("A") }) as z.ZodType<unknown>,
      run: async () => 1,
    };
    const schema = toolJsonSchema(tool);
    expect(schema).toEqual({
      type: "object",
      properties: { a: { type: "string", description: "A" } },
      required: ["a"],
    });
    expect(toolJsonSchema(tool)).toBe(schema);
    const raw = { type: "object", properties: {} };
    expect(toolJsonSchema({ name: "r", description: "", jsonSchema: raw, run: async () => 1 })).toBe(raw);
  });

  it("user parts: text first then media; content text parts win over message.text", () => {
    const img = { type: "image" as const, source: { type: "base64", media_type: "image/png", data: "x" } };
    expect(userParts({ sender: "user", text: "hi", content: [img] })).toEqual([{ type: "text", text: "hi" }, img]);
    expect(userParts({ sender: "user", text: "hi", content: [{ type: "text", text: "hi" }, img] })).toEqual([
      { type: "text", text: "hi" },
      img,
    ]);
  });

  it("arguments: unparseable JSON stays a raw string; objects for providers wanting objects", () => {
    expect(parseArgs('{"a":1}')).toEqual({ a: 1 });
    expect(parseArgs("{oops")).toBe("{oops");
    expect(parseArgs("")).toEqual({});
    expect(argsObject('{"a":1}')).toEqual({ a: 1 });
    expect(argsObject("{oops")).toEqual({ raw_arguments: "{oops" });
  });
});
