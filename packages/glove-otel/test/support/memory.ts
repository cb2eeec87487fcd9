import type { Context } from "@opentelemetry/api";
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
  type ReadableSpan,
  type Span,
  type SpanProcessor,
} from "@opentelemetry/sdk-trace-base";
import { Displaymanager, Glove, type GloveConfig } from "glove-core";

/** A real SDK tracer exporting to memory, plus the spans started and not yet ended. */
export function memoryTracing() {
  const exporter = new InMemorySpanExporter();
  const open = new Map<string, string>();
  const tracker: SpanProcessor = {
    onStart: (span: Span, _ctx: Context) => void open.set(span.spanContext().spanId, span.name),
    onEnd: (span: ReadableSpan) => void open.delete(span.spanContext().spanId),
    forceFlush: async () => {},
    shutdown: async () => {},
  };
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter), tracker] });
  const tracer = provider.getTracer("glove-otel-test");
  const spans = () => exporter.getFinishedSpans();
  const named = (name: string) => {
    const found = spans().filter((s) => s.name === name);
    if (found.length !== 1)
      throw new Error(
        `expected one span "${name}", found ${found.length}: ${spans()
          .map((s) => s.name)
          .join(", ")}`,
      );
    return found[0]!;
  };
  const childrenOf = (span: ReadableSpan) =>
    spans().filter((s) => s.parentSpanContext?.spanId === span.spanContext().spanId);
  /** The span tree as indented names, children in start order. */
  const tree = (root?: ReadableSpan): string => {
    const roots = root ? [root] : spans().filter((s) => !s.parentSpanContext);
    const lines: string[] = [];
    const walk = (s: ReadableSpan, depth: number) => {
      lines.push(`${"  ".repeat(depth)}${s.name}`);
      const kids = childrenOf(s).sort((a, b) => hr(a.startTime) - hr(b.startTime) || hr(a.endTime) - hr(b.endTime));
      for (const k of kids) walk(k, depth + 1);
    };
    for (const r of roots.sort((a, b) => hr(a.startTime) - hr(b.startTime))) walk(r, 0);
    return lines.join("\n");
  };
  return { provider, tracer, exporter, spans, named, childrenOf, tree, open };
}

/** An HrTime as nanoseconds (a number is precise enough to order spans). */
export function hr([s, ns]: [number, number]): number {
  return s * 1e9 + ns;
}

export function makeGlove(config: Partial<GloveConfig> & Pick<GloveConfig, "model">): Glove {
  return new Glove({
    displayManager: new Displaymanager(),
    systemPrompt: "You are a test agent.",
    compaction_config: { compaction_instructions: "Summarize." },
    ...config,
  });
}
