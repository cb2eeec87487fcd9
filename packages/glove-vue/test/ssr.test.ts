import { createSSRApp, h } from "vue";
import { renderToString } from "vue/server-renderer";
import { afterEach, describe, expect, it } from "vitest";
import type { UseGloveConfig } from "glove-vue";
import { Chat } from "./support/chat.js";
import { snapshot } from "./support/snapshot.js";
import { askAge, showCard } from "./support/tools.js";

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

/** Records every read of a browser global (and of randomness) made from glove-vue's or glove-client's sources. */
function trapBrowserGlobals(): { touched: string[]; restore: () => void } {
  const touched: string[] = [];
  const saved = new Map<string, PropertyDescriptor | undefined>();
  const ours = () => /glove-(vue|client)[\\/]src/.test(new Error().stack ?? "");
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
  return {
    touched,
    restore() {
      for (const [name, descriptor] of saved) {
        if (descriptor) Object.defineProperty(globalThis, name, descriptor);
        else delete (globalThis as Record<string, unknown>)[name];
      }
      Math.random = random;
    },
  };
}

let trap: ReturnType<typeof trapBrowserGlobals> | undefined;
afterEach(() => trap?.restore());

const render = (config: UseGloveConfig) => renderToString(createSSRApp({ render: () => h(Chat, { config }) }));

describe("server rendering with vue/server-renderer", () => {
  it("renders the history of a server conversation from its snapshot, touching no browser global", async () => {
    trap = trapBrowserGlobals();
    const html = await render({ server: "/api/glove", initialSnapshot: snapshot, tools: [askAge, showCard] });
    trap.restore();
    expect(trap.touched).toEqual([]);

    // pre_modified_text: what the user typed; the skill's injected text stays out.
    expect(html).toContain("/concise show a card");
    expect(html).not.toContain("invoked_extension__skill_concise");
    expect(html).not.toContain("Answer in one line.");
    expect(html).toMatch(/data-glove-role="compaction"[\s\S]*They looked at a Tokyo card/);
    // renderResult for the finished call from history (its renderData), beside its tool-status line.
    expect(html).toContain("Card from history: Tokyo");
    expect(html).toContain("show_card:success");
    // The pending form, drawn by the tool's render, right after its call (interleaved).
    const plain = html.replace(/<!--[^>]*-->/g, ""); // Vue's fragment markers
    expect(plain).toMatch(/ask_age:running<\/i><form data-testid="age-form" data-status="pending"><p>How old\?/);
    // The permission prompt has a default renderer; an unknown renderer gets a visible fallback.
    expect(html).toMatch(
      /role="group"[\s\S]*Allow <strong>delete_file<\/strong> to run\?[\s\S]*Allow<\/button>[\s\S]*Deny<\/button>/,
    );
    expect(html).toMatch(/role="alert" data-glove-role="unknown-renderer"[\s\S]*weather_map[\s\S]*Oslo/);
    expect(html).toContain('data-glove-role="input"');
  });

  it("renders the same markup twice (no random ids or times in render)", async () => {
    const config = { server: "/api/glove", initialSnapshot: snapshot, tools: [askAge, showCard] };
    expect(await render(config)).toBe(await render(config));
  });

  it("renders local mode on the server as an empty transcript without opening anything", async () => {
    trap = trapBrowserGlobals();
    const html = await render({ endpoint: "/api/model", systemPrompt: "Be brief.", tools: [askAge] });
    trap.restore();
    expect(trap.touched).toEqual([]);
    expect(html).toContain('data-glove-strategy="interleaved"');
    expect(html).not.toContain("data-kind");
  });
});
