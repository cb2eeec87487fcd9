import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { BasicTracerProvider, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { ScriptedModel } from "glove-core/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { traceGlove } from "../src/index.js";
import { makeGlove } from "./support/memory.js";

/** OTLP/JSON as the exporter sends it (only the fields checked here). */
interface OtlpValue {
  stringValue?: string;
  intValue?: number | string;
  boolValue?: boolean;
  arrayValue?: { values: OtlpValue[] };
}
interface OtlpSpan {
  name: string;
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  attributes: Array<{ key: string; value: OtlpValue }>;
  status?: { code?: number };
}
interface OtlpExport {
  resourceSpans: Array<{ scopeSpans: Array<{ scope: { name: string }; spans: OtlpSpan[] }> }>;
}

const plain = (v: OtlpValue): unknown =>
  v.stringValue ??
  (v.intValue !== undefined ? Number(v.intValue) : undefined) ??
  v.boolValue ??
  v.arrayValue?.values.map(plain);

describe("glove-otel over OTLP/HTTP", () => {
  const received: Array<{ url: string; headers: IncomingHttpHeaders; body: OtlpExport }> = [];
  const server = createServer((req, res) => {
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (chunk: string) => (body += chunk));
    req.on("end", () => {
      received.push({ url: req.url ?? "", headers: req.headers, body: JSON.parse(body) as OtlpExport });
      res.writeHead(200, { "content-type": "application/json" });
      res.end("{}");
    });
  });
  let url = "";

  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/traces`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it("spans reach a local collector as OTLP/JSON with GenAI names and attributes", async () => {
    const provider = new BasicTracerProvider({
      spanProcessors: [new SimpleSpanProcessor(new OTLPTraceExporter({ url }))],
    });
    const model = new ScriptedModel([
      { text: "Checking.", toolCalls: [{ name: "lookup", input: { q: "x" } }], tokens_in: 42, tokens_out: 7 },
      { text: "Found it.", tokens_in: 50, tokens_out: 3 },
    ]);
    const agent = traceGlove(
      makeGlove({ model })
        .fold({
          name: "lookup",
          description: "Looks up.",
          async do() {
            return "value";
          },
        })
        .build(),
      { tracer: provider.getTracer("otlp-test"), agentName: "searcher" },
    );
    await agent.processRequest("find x");
    await provider.forceFlush();
    await provider.shutdown();

    expect(received.length).toBeGreaterThan(0);
    expect(received.every((r) => r.url === "/v1/traces" && r.headers["content-type"] === "application/json")).toBe(
      true,
    );
    const spans = received.flatMap((r) =>
      r.body.resourceSpans.flatMap((rs) => rs.scopeSpans.flatMap((ss) => ss.spans)),
    );
    const attrs = (s: OtlpSpan) => Object.fromEntries(s.attributes.map((a) => [a.key, plain(a.value)]));
    expect(spans.map((s) => s.name).sort()).toEqual([
      "chat scripted",
      "chat scripted",
      "execute_tool lookup",
      "invoke_agent searcher",
    ]);

    const root = spans.find((s) => s.name === "invoke_agent searcher")!;
    expect(root.parentSpanId ?? "").toBe("");
    expect(attrs(root)).toMatchObject({
      "gen_ai.operation.name": "invoke_agent",
      "gen_ai.agent.name": "searcher",
      "gen_ai.usage.input_tokens": 92,
      "gen_ai.usage.output_tokens": 10,
    });
    for (const s of spans) {
      expect(s.traceId).toBe(root.traceId);
      if (s !== root) expect(s.parentSpanId).toBe(root.spanId);
    }
    const chat = spans.find((s) => s.name === "chat scripted" && attrs(s)["gen_ai.usage.input_tokens"] === 42)!;
    expect(attrs(chat)).toMatchObject({
      "gen_ai.operation.name": "chat",
      "gen_ai.request.model": "scripted",
      "gen_ai.response.finish_reasons": ["tool_use"],
    });
    const tool = spans.find((s) => s.name === "execute_tool lookup")!;
    expect(attrs(tool)).toMatchObject({
      "gen_ai.tool.name": "lookup",
      "gen_ai.tool.call.id": "scripted_0_0",
      "glove.tool.status": "success",
    });
    // Content capture is off by default: nothing of the conversation went over the wire.
    expect(JSON.stringify(received.map((r) => r.body))).not.toMatch(/find x|Checking|Found it/);
  });
});
