// @vitest-environment happy-dom
import { createApp, createSSRApp, defineComponent, h, nextTick, ref, type App } from "vue";
import { renderToString } from "vue/server-renderer";
import { afterEach, describe, expect, it } from "vitest";
import { ScriptedModel, type ScriptedTurn } from "glove-core/testing";
import { MemoryStore } from "glove-core";
import { GloveClient, GloveRender, useGlove, type UseGloveReturn } from "glove-vue";
import { Chat } from "./support/chat.js";
import { snapshot } from "./support/snapshot.js";
import { askAge, deleteFile, showCard } from "./support/tools.js";
import { PROMPT_WAIT_MS } from "../../../test-support/timeouts.js";

let app: App | undefined;
let container: HTMLElement;
afterEach(() => {
  app?.unmount();
  app = undefined;
  container?.remove();
});

function mount(root: App): void {
  container = document.createElement("div");
  document.body.appendChild(container);
  app = root;
  app.mount(container);
}

async function until(check: () => boolean, what: string, timeoutMs = PROMPT_WAIT_MS): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; page: ${container.innerHTML}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  await nextTick();
}

const $ = (selector: string) => container.querySelector(selector) as HTMLElement | null;

function client(script: ScriptedTurn[]) {
  return new GloveClient({
    model: new ScriptedModel(script, { delayMs: 2 }),
    systemPrompt: "Test.",
    tools: [askAge, deleteFile],
  });
}

function chatApp(script: ScriptedTurn[], onGlove?: (glove: UseGloveReturn) => void): App {
  return createApp({ render: () => h(Chat, { config: {}, onGlove }) }).use(client(script));
}

describe("useGlove and <GloveRender> in a DOM (local mode)", () => {
  it("sends from the default input and streams the answer into the transcript", async () => {
    mount(chatApp([{ text: "Hello from the tab." }]));
    const input = container.querySelector("input[name=message]") as HTMLInputElement;
    input.value = "hi";
    (container.querySelector("form[data-glove-role=input]") as HTMLFormElement).requestSubmit();
    await until(() => container.textContent!.includes("Hello from the tab."), "the answer");
    expect([...container.querySelectorAll("[data-kind]")].map((e) => e.getAttribute("data-kind"))).toEqual([
      "user",
      "agent_text",
    ]);
    expect(input.value).toBe("");
  });

  it("shows refused answers on the form, keeps the tool waiting, then accepts a valid one", async () => {
    let glove: UseGloveReturn | undefined;
    mount(
      chatApp(
        [{ toolCalls: [{ name: "ask_age", input: { question: "How old are you?" } }] }, { text: "Thanks!" }],
        (g) => (glove = g),
      ),
    );
    glove!.sendMessage("sign me up");
    await until(() => $("[data-testid=age-form]") !== null, "the form");
    const form = $("[data-testid=age-form]");
    $("[data-testid=bad]")!.click();
    await until(() => container.textContent!.includes("age: "), "the issues");
    expect($("[data-testid=age-form]")!.getAttribute("data-status")).toBe("pending");
    expect($("[data-testid=age-form]")).toBe(form); // re-rendered in place, not remounted
    expect(glove!.busy.value).toBe(true);
    $("[data-testid=good]")!.click();
    await until(() => container.textContent!.includes("Thanks!"), "the answer");
    // hide-on-complete: the answered form goes, and renderResult draws the call from history.
    expect($("[data-testid=age-form]")).toBeNull();
    expect($("[data-testid=result]")!.textContent).toBe("Answered: 40");
  });

  it("asks for permission with the default prompt (its checkbox state lives in the prompt)", async () => {
    let glove: UseGloveReturn | undefined;
    mount(
      chatApp(
        [{ toolCalls: [{ name: "delete_file", input: { path: "a.txt" } }] }, { text: "Done." }],
        (g) => (glove = g),
      ),
    );
    glove!.sendMessage("delete a.txt");
    await until(() => $("[data-glove-role=permission-request]") !== null, "the prompt");
    const allow = [...container.querySelectorAll("[data-glove-role=permission-request] button")].find(
      (b) => b.textContent === "Allow",
    ) as HTMLElement;
    allow.click();
    await until(() => container.textContent!.includes("Done."), "the answer");
    expect($("[data-glove-role=permission-request]")).toBeNull(); // hide-on-complete by default
    expect(glove!.messages.value.flatMap((m) => m.tool_results ?? [])[0]!.result.data).toBe("deleted a.txt");
  });

  it("switches the session when a reactive sessionId changes, keeping the composable's store", async () => {
    const stores = new Map<string, MemoryStore>();
    const createStore = (id: string) => stores.get(id) ?? stores.set(id, new MemoryStore(id)).get(id)!;
    const model = new ScriptedModel([{ text: "Answer in a." }, { text: "Answer in b." }], { delayMs: 1 });
    const sessionId = ref("a");
    let glove: UseGloveReturn | undefined;
    const Page = defineComponent({
      setup() {
        glove = useGlove(() => ({ model, systemPrompt: "Test.", sessionId: sessionId.value, createStore }));
        return () => h(GloveRender, { glove: glove!, renderInput: null });
      },
    });
    mount(createApp(Page));
    glove!.sendMessage("in a");
    await until(() => container.textContent!.includes("Answer in a."), "a's answer");
    sessionId.value = "b";
    await until(() => glove!.sessionId.value === "b" && !container.textContent!.includes("Answer in a."), "b");
    glove!.sendMessage("in b");
    await until(() => container.textContent!.includes("Answer in b."), "b's answer");
    sessionId.value = "a";
    await until(() => container.textContent!.includes("Answer in a."), "a again");
    expect(container.textContent).not.toContain("Answer in b.");
  });
});

describe("hydration", () => {
  it("hydrates the server's markup from the same initial snapshot without a mismatch", async () => {
    const config = { server: "/api/glove", initialSnapshot: snapshot, tools: [askAge, showCard] };
    const html = await renderToString(createSSRApp({ render: () => h(Chat, { config }) }));
    const warnings: string[] = [];
    container = document.createElement("div");
    container.innerHTML = html;
    document.body.appendChild(container);
    const form = container.querySelector("[data-testid=age-form]");
    // The server's fetch is never reached: the page only hydrates (no session opens on a stub).
    const fetch = () => new Promise<Response>(() => undefined);
    app = createSSRApp({ render: () => h(Chat, { config: { ...config, fetch } }) });
    app.config.warnHandler = (message) => void warnings.push(message);
    const originalError = console.error;
    console.error = (...args: unknown[]) => void warnings.push(args.map(String).join(" "));
    try {
      app.mount(container);
      await nextTick();
    } finally {
      console.error = originalError;
    }
    expect(warnings.filter((w) => /hydration|mismatch/i.test(w))).toEqual([]);
    // The same element, now live (hydrated, not re-created).
    expect(container.querySelector("[data-testid=age-form]")).toBe(form);
    expect(container.textContent).toContain("Card from history: Tokyo");
  });
});
