// @vitest-environment happy-dom
import { act, StrictMode, useState } from "react";
import { createRoot, type Root } from "react-dom/client";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { ScriptedModel, type ScriptedTurn } from "glove-core/testing";
import { MemoryStore } from "glove-core";
import { defineTool, GloveClient, GloveProvider, Render, useGlove, type UseGloveReturn } from "glove-react";
import { deleteFile } from "./support/tools.js";
import { PROMPT_WAIT_MS } from "../../../test-support/timeouts.js";

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

/** A form tool drawn with real buttons; shows the issues of a refused answer. */
const askAge = defineTool({
  name: "ask_age",
  description: "Asks the user's age.",
  inputSchema: z.object({ question: z.string() }),
  displayPropsSchema: z.object({ question: z.string() }),
  resolveSchema: z.object({ age: z.number().int().min(0) }),
  async do(input, display) {
    const { age } = await display.pushAndWait(input);
    return { status: "success", data: `age ${age}`, renderData: { age } };
  },
  render({ props, resolve, issues, status }) {
    const [clicks, setClicks] = useState(0); // hooks work: render is mounted as a component
    return (
      <form data-testid="age-form" data-status={status}>
        <p>{props.question}</p>
        <button
          type="button"
          data-testid="bad"
          onClick={() => (setClicks(clicks + 1), resolve({ age: "forty" } as unknown as { age: number }))}
        >
          bad
        </button>
        <button type="button" data-testid="good" onClick={() => resolve({ age: 40 })}>
          good
        </button>
        <span data-testid="clicks">{clicks}</span>
        {issues?.map((issue) => (
          <em key={issue.path}>{`${issue.path}: ${issue.message}`}</em>
        ))}
      </form>
    );
  },
  renderResult: ({ data }) => <p data-testid="result">{`Age on file: ${data.age}`}</p>,
});

let root: Root | undefined;
let container: HTMLElement;
afterEach(async () => {
  await act(async () => root?.unmount());
  root = undefined;
  container?.remove();
});

async function mount(node: React.ReactNode): Promise<void> {
  container = document.createElement("div");
  document.body.appendChild(container);
  root = createRoot(container);
  await act(async () => root!.render(<StrictMode>{node}</StrictMode>));
}

async function until(check: () => boolean, what: string, timeoutMs = PROMPT_WAIT_MS): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; page: ${container.innerHTML}`);
    await act(async () => new Promise((resolve) => setTimeout(resolve, 10)));
  }
}

const $ = (selector: string) => container.querySelector(selector) as HTMLElement | null;
const click = (selector: string) => act(async () => $(selector)!.click());

function Chat({ onGlove }: { onGlove?: (glove: UseGloveReturn) => void }) {
  const glove = useGlove();
  onGlove?.(glove);
  return (
    <Render
      glove={glove}
      renderMessage={({ entry }) => {
        const [count, setCount] = useState(0);
        return (
          <div data-kind={entry.kind} data-key={entry.key}>
            {entry.text}
            <button type="button" className="count" onClick={() => setCount((n) => n + 1)}>
              {count}
            </button>
          </div>
        );
      }}
    />
  );
}

function client(script: ScriptedTurn[]) {
  return new GloveClient({
    model: new ScriptedModel(script, { delayMs: 2 }),
    systemPrompt: "Test.",
    tools: [askAge, deleteFile],
  });
}

describe("useGlove and <Render> in a DOM (StrictMode)", () => {
  it("sends from the default input and shows the conversation once, despite StrictMode's double effects", async () => {
    await mount(
      <GloveProvider client={client([{ text: "Hello from the tab." }])}>
        <Chat />
      </GloveProvider>,
    );
    const input = container.querySelector("input[name=message]") as HTMLInputElement;
    input.value = "hi";
    await act(async () => (container.querySelector("form[data-glove-role=input]") as HTMLFormElement).requestSubmit());
    await until(() => container.textContent!.includes("Hello from the tab."), "the answer");
    expect([...container.querySelectorAll("[data-kind]")].map((e) => e.getAttribute("data-kind"))).toEqual([
      "user",
      "agent_text",
    ]);
    expect(input.value).toBe("");
  });

  it("keeps hook state inside an inline render prop while the transcript re-renders", async () => {
    let glove: UseGloveReturn | undefined;
    await mount(
      <GloveProvider
        client={client([{ text: "First." }, { text: "A second, longer answer that streams in several chunks." }])}
      >
        <Chat onGlove={(g) => (glove = g)} />
      </GloveProvider>,
    );
    await act(async () => void glove!.sendMessage("one"));
    await until(() => container.textContent!.includes("First."), "the first answer");
    await click("[data-kind=user] .count");
    await click("[data-kind=user] .count");
    expect($("[data-kind=user] .count")!.textContent).toBe("2");
    const firstUser = $("[data-kind=user]");
    await act(async () => void glove!.sendMessage("two"));
    await until(() => container.textContent!.includes("several chunks."), "the second answer");
    // Same element, same state: the optimistic entry was reconciled in place and nothing remounted.
    expect($("[data-kind=user]")).toBe(firstUser);
    expect($("[data-kind=user] .count")!.textContent).toBe("2");
  });

  it("shows refused answers on the form, keeps the tool waiting, then accepts a valid one", async () => {
    let glove: UseGloveReturn | undefined;
    await mount(
      <GloveProvider
        client={client([
          { toolCalls: [{ name: "ask_age", input: { question: "How old are you?" } }] },
          { text: "Thanks!" },
        ])}
      >
        <Chat onGlove={(g) => (glove = g)} />
      </GloveProvider>,
    );
    await act(async () => void glove!.sendMessage("sign me up"));
    await until(() => $("[data-testid=age-form]") !== null, "the form");
    await click("[data-testid=bad]");
    await until(() => container.textContent!.includes("age: "), "the issues");
    expect($("[data-testid=age-form]")!.getAttribute("data-status")).toBe("pending");
    expect($("[data-testid=clicks]")!.textContent).toBe("1");
    expect(glove!.busy).toBe(true);
    await click("[data-testid=good]");
    await until(() => container.textContent!.includes("Thanks!"), "the answer");
    // hide-on-complete is not set: `stay` keeps the answered form, and the history result is not doubled.
    expect($("[data-testid=age-form]")!.getAttribute("data-status")).toBe("resolved");
    expect($("[data-testid=result]")).toBeNull();
  });

  it("asks for permission with the default prompt", async () => {
    let glove: UseGloveReturn | undefined;
    await mount(
      <GloveProvider
        client={client([{ toolCalls: [{ name: "delete_file", input: { path: "a.txt" } }] }, { text: "Done." }])}
      >
        <Chat onGlove={(g) => (glove = g)} />
      </GloveProvider>,
    );
    await act(async () => void glove!.sendMessage("delete a.txt"));
    await until(() => $("[data-glove-role=permission-request]") !== null, "the prompt");
    const allow = [...container.querySelectorAll("[data-glove-role=permission-request] button")].find(
      (b) => b.textContent === "Allow",
    ) as HTMLElement;
    await act(async () => allow.click());
    await until(() => container.textContent!.includes("Done."), "the answer");
    expect($("[data-glove-role=permission-request]")).toBeNull(); // hide-on-complete by default
    expect(glove!.messages.flatMap((m) => m.tool_results ?? [])[0]!.result.data).toBe("deleted a.txt");
  });
});

describe("switching conversations from props", () => {
  it("switches the session when sessionId changes, without rebuilding the hook's store", async () => {
    const stores = new Map<string, MemoryStore>();
    const createStore = (id: string) => stores.get(id) ?? stores.set(id, new MemoryStore(id)).get(id)!;
    const model = new ScriptedModel([{ text: "Answer in a." }, { text: "Answer in b." }], { delayMs: 1 });
    let glove: UseGloveReturn | undefined;
    function Page({ sessionId }: { sessionId: string }) {
      glove = useGlove({ model, systemPrompt: "Test.", sessionId, createStore });
      return <Render glove={glove} renderInput={null} />;
    }
    await mount(<Page sessionId="a" />);
    await act(async () => void glove!.sendMessage("in a"));
    await until(() => container.textContent!.includes("Answer in a."), "a's answer");
    await act(async () =>
      root!.render(
        <StrictMode>
          <Page sessionId="b" />
        </StrictMode>,
      ),
    );
    await until(() => glove!.sessionId === "b" && !container.textContent!.includes("Answer in a."), "session b");
    await act(async () => void glove!.sendMessage("in b"));
    await until(() => container.textContent!.includes("Answer in b."), "b's answer");
    await act(async () =>
      root!.render(
        <StrictMode>
          <Page sessionId="a" />
        </StrictMode>,
      ),
    );
    await until(() => glove!.sessionId === "a" && container.textContent!.includes("Answer in a."), "back to a");
    expect(container.textContent).not.toContain("Answer in b.");
  });
});
