import { HttpAgent, type AgentSubscriber, type RunAgentParameters } from "@ag-ui/client";
import type { BaseEvent, Interrupt, Message, ResumeEntry } from "@ag-ui/core";
import { EventSchemas } from "@ag-ui/core/schemas";
import type { TestServer } from "../../../support/harness.js";

/** Every AG-UI event the suite received, each checked against @ag-ui/core's schema when it arrived. */
export const received: { count: number; types: Map<string, number> } = { count: 0, types: new Map() };

/**
 * An AG-UI event checked against the official schema (strict: a field the protocol does not know
 * fails too); throws with zod's issues otherwise. Counted in `received`.
 */
export function validated(event: unknown): BaseEvent {
  const parsed = EventSchemas.safeParse(event);
  if (!parsed.success)
    throw new Error(`Invalid AG-UI event ${JSON.stringify(event)}: ${JSON.stringify(parsed.error.issues)}`);
  const unknownKeys = Object.keys(event as object).filter((key) => !(key in (parsed.data as object)));
  if (unknownKeys.length > 0)
    throw new Error(
      `AG-UI event ${JSON.stringify(event)} has fields the schema does not know: ${unknownKeys.join(", ")}`,
    );
  received.count++;
  const type = (event as { type: string }).type;
  received.types.set(type, (received.types.get(type) ?? 0) + 1);
  return parsed.data as BaseEvent;
}

export interface Run {
  events: BaseEvent[];
  /** The interrupts of the RUN_FINISHED that ended the run, if it was interrupted. */
  interrupts: Interrupt[];
  outcome: string | undefined;
  error: unknown;
}

/** An official HttpAgent on a test server's AG-UI route (one in this process or a child's), as `user`; every event it sees is validated. */
export function agUiAgent(
  server: Pick<TestServer, "url">,
  options: { user?: string; threadId?: string; path?: string; messages?: Message[] } = {},
): HttpAgent {
  return new HttpAgent({
    url: `${server.url}${options.path ?? "/ag-ui"}`,
    headers: { authorization: `Bearer ${options.user ?? "alice"}` },
    ...(options.threadId !== undefined ? { threadId: options.threadId } : {}),
    ...(options.messages !== undefined ? { initialMessages: options.messages } : {}),
  });
}

/** Adds a user message and runs the agent; resolves with what the run streamed (errors included). */
export async function say(agent: HttpAgent, text: string): Promise<Run> {
  agent.addMessage({ id: crypto.randomUUID(), role: "user", content: text });
  return runOnce(agent, {});
}

/** One run of the agent (a resume, a retry, …), its events collected and validated. */
export async function runOnce(
  agent: HttpAgent,
  parameters: RunAgentParameters & { resume?: ResumeEntry[] },
): Promise<Run> {
  const run: Run = { events: [], interrupts: [], outcome: undefined, error: undefined };
  const subscriber: AgentSubscriber = {
    onEvent: ({ event }) => {
      run.events.push(validated(event));
      if (event.type === "RUN_FINISHED") {
        const outcome = (event as { outcome?: { type: string; interrupts?: Interrupt[] } }).outcome;
        run.outcome = outcome?.type ?? "success";
        run.interrupts = outcome?.interrupts ?? [];
      }
    },
  };
  try {
    await agent.runAgent(parameters, subscriber);
  } catch (error) {
    run.error = error;
  }
  return run;
}

/** The text of the run's TEXT_MESSAGE_CONTENT events, in order. */
export function streamedText(run: Run): string {
  return run.events
    .filter((event) => event.type === "TEXT_MESSAGE_CONTENT")
    .map((event) => (event as unknown as { delta: string }).delta)
    .join("");
}

/** The event types of a run, in order. */
export function typesOf(run: Run): string[] {
  return run.events.map((event) => event.type);
}
