import { useId, useState } from "react";
import { renderToString } from "react-dom/server";
import { afterEach, describe, expect, it } from "vitest";
import {
  GloveClient,
  GloveProvider,
  Render,
  useGlove,
  type ConversationSnapshot,
  type UseGloveConfig,
} from "glove-react";
import { askAge, showCard } from "./support/tools.js";

/** A conversation as glove-server's GET /conversations/:id answers it (fetched by the page's server). */
const snapshot: ConversationSnapshot = {
  id: "conv-1",
  agent: "assistant",
  title: "Cards",
  messages: [
    { sender: "user", text: "Answer in one line.", is_skill_injection: true },
    {
      sender: "user",
      text: "[invoked_extension__skill_concise] show a card",
      pre_modified_text: "/concise show a card",
    },
    {
      sender: "agent",
      text: "Here is your card.",
      tool_calls: [{ id: "call_card", tool_name: "show_card", input_args: { title: "Tokyo" } }],
    },
    {
      sender: "user",
      text: "",
      tool_results: [
        {
          tool_name: "show_card",
          call_id: "call_card",
          result: { status: "success", data: "shown", renderData: { card: "Tokyo" } },
        },
      ],
    },
    { sender: "agent", text: "Anything else?" },
    { sender: "user", text: "[Summary] They looked at a Tokyo card.", is_compaction: true },
    { sender: "user", text: "how old am I?" },
    {
      sender: "agent",
      text: "",
      tool_calls: [{ id: "call_age", tool_name: "ask_age", input_args: { question: "How old?" } }],
    },
  ],
  slots: [
    {
      id: "slot-age",
      renderer: "ask_age",
      input: { question: "How old?" },
      toolName: "ask_age",
      toolCallId: "call_age",
      displayStrategy: "hide-on-complete",
      mode: "wait",
      status: "pending",
    },
    {
      id: "slot-perm",
      renderer: "permission_request",
      input: { tool_name: "delete_file", input: { path: "a.txt" }, call_id: "call_x" },
      toolName: "delete_file",
      toolCallId: "call_x",
      displayStrategy: null,
      mode: "wait",
      status: "pending",
    },
    {
      id: "slot-odd",
      renderer: "weather_map",
      input: { city: "Oslo" },
      toolName: "weather",
      toolCallId: null,
      displayStrategy: null,
      mode: "forget",
      status: "shown",
    },
  ],
  tasks: [{ id: "t1", content: "Find a card", activeForm: "Finding a card", status: "completed" }],
  inbox: [],
  busy: true,
  turnId: "turn-9",
  streamingText: "",
  lastEventId: 42,
};

const TRAPPED = [
  "window",
  "document",
  "localStorage",
  "sessionStorage",
  "requestAnimationFrame",
  "cancelAnimationFrame",
  "fetch",
  "EventSource",
  "navigator",
] as const;

/** Records every read of a browser global (and of randomness) made from glove-react's sources. */
function trapBrowserGlobals(): { touched: string[]; restore: () => void } {
  const touched: string[] = [];
  const saved = new Map<string, PropertyDescriptor | undefined>();
  const ours = () => /glove-react[\\/]src/.test(new Error().stack ?? "");
  for (const name of TRAPPED) {
    saved.set(name, Object.getOwnPropertyDescriptor(globalThis, name));
    const original = (globalThis as Record<string, unknown>)[name];
    Object.defineProperty(globalThis, name, {
      configurable: true,
      get() {
        if (ours()) touched.push(name);
        return original;
      },
    });
  }
  const random = Math.random;
  Math.random = () => {
    if (ours()) touched.push("Math.random");
    return random();
  };
  const uuid = crypto.randomUUID.bind(crypto);
  crypto.randomUUID = () => {
    if (ours()) touched.push("crypto.randomUUID");
    return uuid();
  };
  return {
    touched,
    restore() {
      for (const [name, descriptor] of saved) {
        if (descriptor) Object.defineProperty(globalThis, name, descriptor);
        else delete (globalThis as Record<string, unknown>)[name];
      }
      Math.random = random;
      crypto.randomUUID = uuid;
    },
  };
}

function Chat(config: UseGloveConfig) {
  const glove = useGlove(config);
  return (
    <Render
      glove={glove}
      renderMessage={({ entry }) => {
        // Hooks inside a render prop: it is mounted as a component.
        const id = useId();
        const [shown] = useState(entry.text);
        return (
          <p id={id} data-kind={entry.kind}>
            {shown}
          </p>
        );
      }}
      renderToolStatus={({ entry }) => <i>{`${entry.name}:${entry.status}`}</i>}
    />
  );
}

let trap: ReturnType<typeof trapBrowserGlobals> | undefined;
afterEach(() => trap?.restore());

describe("server rendering", () => {
  it("renders the history of a server conversation from its snapshot, touching no browser global", () => {
    trap = trapBrowserGlobals();
    const html = renderToString(<Chat server="/api/glove" initialSnapshot={snapshot} tools={[askAge, showCard]} />);
    trap.restore();
    expect(trap.touched).toEqual([]);

    // pre_modified_text: what the user typed; the skill's injected text and the placeholder stay out.
    expect(html).toContain("/concise show a card");
    expect(html).not.toContain("invoked_extension__skill_concise");
    expect(html).not.toContain("Answer in one line.");
    // is_compaction: a marker with the summary, not a user message.
    expect(html).toMatch(/data-glove-role="compaction"[\s\S]*They looked at a Tokyo card/);
    expect(html).not.toMatch(/data-kind="user"[^>]*>\[Summary\]/);
    // renderResult for the finished call from history (its renderData).
    expect(html).toContain("Card from history: Tokyo");
    expect(html).toContain("show_card:success");
    // The pending form, drawn by the tool's render, right after its call (interleaved).
    expect(html).toMatch(/ask_age:running<\/i>How old\? \[function\]/);
    // The permission prompt has a default renderer; an unknown renderer gets a visible fallback.
    expect(html).toMatch(
      /role="group"[\s\S]*Allow <strong>delete_file<\/strong> to run\?[\s\S]*Allow<\/button>[\s\S]*Deny<\/button>/,
    );
    expect(html).toMatch(/role="alert" data-glove-role="unknown-renderer"[\s\S]*weather_map[\s\S]*Oslo/);
    // The default input is there.
    expect(html).toContain('data-glove-role="input"');
  });

  it("renders the same markup twice (no random ids or times in render)", () => {
    const a = renderToString(<Chat server="/api/glove" initialSnapshot={snapshot} tools={[askAge, showCard]} />);
    const b = renderToString(<Chat server="/api/glove" initialSnapshot={snapshot} tools={[askAge, showCard]} />);
    expect(a).toBe(b);
  });

  it("renders local mode on the server as an empty transcript without opening anything", () => {
    trap = trapBrowserGlobals();
    const client = new GloveClient({ endpoint: "/api/model", systemPrompt: "Be helpful.", persistSession: true });
    const html = renderToString(
      <GloveProvider client={client}>
        <Chat />
      </GloveProvider>,
    );
    trap.restore();
    expect(trap.touched).toEqual([]);
    expect(html).toContain('data-glove-strategy="interleaved"');
    expect(html).toContain('data-glove-role="input"');
  });

  it("places slots by strategy", () => {
    const render = (strategy: "slots-before" | "slots-after" | "slots-only") =>
      renderToString(<Render glove={{ ...fakeGlove() }} strategy={strategy} renderInput={null} />);
    expect(render("slots-before").indexOf("SLOT")).toBeLessThan(render("slots-before").indexOf("MSG"));
    expect(render("slots-after").indexOf("SLOT")).toBeGreaterThan(render("slots-after").indexOf("MSG"));
    expect(render("slots-only")).not.toContain("MSG");
  });

  it("puts the streaming text before messages still waiting for their turn", () => {
    const glove = {
      ...fakeGlove(),
      slots: [],
      streamingText: "STREAM",
      timeline: [
        { kind: "user" as const, key: "u1", text: "FIRST" },
        { kind: "user" as const, key: "u2", text: "QUEUED", status: "queued" as const, clientMessageId: "m2" },
      ],
    };
    const html = renderToString(<Render glove={glove} renderInput={null} />);
    expect(html.indexOf("FIRST")).toBeLessThan(html.indexOf("STREAM"));
    expect(html.indexOf("STREAM")).toBeLessThan(html.indexOf("QUEUED"));
  });
});

function fakeGlove() {
  return {
    timeline: [{ kind: "agent_text" as const, key: "k", text: "MSG" }],
    streamingText: "",
    busy: false,
    connection: "idle" as const,
    slots: [
      {
        id: "s",
        renderer: "x",
        input: {},
        toolName: "x",
        toolCallId: null,
        displayStrategy: null,
        mode: "forget" as const,
        status: "shown" as const,
        seq: 0,
      },
    ],
    sendMessage: () => "",
    abort: async () => undefined,
    renderSlot: () => <b key="s">SLOT</b>,
    renderToolResult: () => null,
  };
}
