/**
 * The Vue benchmark page: `window.__bench` as bench/react's page has it (the same Node driver,
 * ../../react/measure.ts). Vue has no <Profiler>: an update is counted as one DOM mutation batch
 * (a MutationObserver callback on the chat's container: one per Vue flush that changed the DOM),
 * and `renderMs` is not measured (0).
 */
import { createApp, h, type App } from "vue";
import { GloveChat, historyStore, type ChatControls } from "./glove-chat.js";
import { PlainChat } from "./plain-chat.js";
import { fullText } from "../../react/page/tokens.js";
import type { ChatKind, PageResult } from "../../react/types.js";

interface Mounted {
  kind: ChatKind;
  tokens: number;
  entries: number;
  app: App;
  container: HTMLElement;
  controls: ChatControls;
  counting: boolean;
  commits: number;
  observer: MutationObserver;
}

let mounted: Mounted | null = null;

async function prepare(kind: ChatKind, tokens: number, entries: number): Promise<void> {
  if (mounted) throw new Error("finish() the previous run first");
  const container = document.createElement("div");
  document.getElementById("root")!.append(container);
  const store = kind === "glove" ? await historyStore(entries) : null;
  let app!: App;
  const controls = await new Promise<ChatControls>((resolve) => {
    app = createApp({
      render: () =>
        store
          ? h(GloveChat, { store, entries, tokens, onReady: resolve })
          : h(PlainChat, { entries, tokens, onReady: resolve }),
    });
    app.mount(container);
  });
  const observer = new MutationObserver(() => {
    if (mounted?.counting) mounted.commits++;
  });
  observer.observe(container, { childList: true, subtree: true, characterData: true, attributes: true });
  mounted = { kind, tokens, entries, app, container, controls, counting: false, commits: 0, observer };
  // The chat is drawn with its history; let the frame that shows it end before measuring.
  await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
}

async function go(): Promise<PageResult> {
  const run = mounted;
  if (!run) throw new Error("prepare() first");
  const long: PerformanceEntry[] = [];
  const observer = new PerformanceObserver((list) => long.push(...list.getEntries()));
  observer.observe({ type: "longtask" });
  run.counting = true;
  const start = performance.now();
  await run.controls.start();
  const wallMs = performance.now() - start;
  // The last batch's callback runs as a microtask after the patch that resolved `start`.
  await Promise.resolve();
  run.counting = false;
  observer.disconnect();
  const answer = fullText(run.tokens);
  const text = run.container.textContent ?? "";
  return {
    kind: run.kind,
    tokens: run.tokens,
    entries: run.entries,
    commits: run.commits,
    wallMs,
    renderMs: 0,
    longTasks: long.length,
    longTaskMs: long.reduce((sum, entry) => sum + entry.duration, 0),
    longTaskSpans: long.map((entry) => [Math.round(entry.startTime - start), Math.round(entry.duration)]),
    answerChars: text.includes(answer) ? answer.length : -1,
    elements: run.container.firstElementChild?.childElementCount ?? 0,
  };
}

function finish(): void {
  mounted?.observer.disconnect();
  mounted?.app.unmount();
  mounted?.container.remove();
  mounted = null;
}

declare global {
  interface Window {
    __bench: { prepare: typeof prepare; go: typeof go; finish: typeof finish; ready: true };
  }
}

window.__bench = { prepare, go, finish, ready: true };
