/**
 * The benchmark page. `window.__bench` mounts one chat (`prepare`), streams into it (`go`: React
 * commits counted by <Profiler onRender>, wall time by performance.now(), long tasks by a
 * PerformanceObserver) and unmounts it (`finish`). The Node side (../measure.ts) reads Chrome's
 * TaskDuration/ScriptDuration around `go`.
 */
import { Profiler } from "react";
import { createRoot, type Root } from "react-dom/client";
import { GloveChat, historyStore } from "./glove-chat.js";
import { PlainChat, type ChatControls } from "./plain-chat.js";
import { fullText } from "./tokens.js";
import type { ChatKind, PageResult } from "../types.js";

interface Mounted {
  kind: ChatKind;
  tokens: number;
  entries: number;
  root: Root;
  container: HTMLElement;
  controls: ChatControls;
  counting: boolean;
  commits: number;
  renderMs: number;
}

let mounted: Mounted | null = null;

async function prepare(kind: ChatKind, tokens: number, entries: number): Promise<void> {
  if (mounted) throw new Error("finish() the previous run first");
  const container = document.createElement("div");
  document.getElementById("root")!.append(container);
  const root = createRoot(container);
  const store = kind === "glove" ? await historyStore(entries) : null;
  const controls = await new Promise<ChatControls>((resolve) => {
    const onRender = (_id: string, _phase: string, actualDuration: number) => {
      if (!mounted?.counting) return;
      mounted.commits++;
      mounted.renderMs += actualDuration;
    };
    root.render(
      <Profiler id={kind} onRender={onRender}>
        {store ? (
          <GloveChat store={store} entries={entries} tokens={tokens} onReady={resolve} />
        ) : (
          <PlainChat entries={entries} tokens={tokens} onReady={resolve} />
        )}
      </Profiler>,
    );
  });
  mounted = { kind, tokens, entries, root, container, controls, counting: false, commits: 0, renderMs: 0 };
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
    renderMs: run.renderMs,
    longTasks: long.length,
    longTaskMs: long.reduce((sum, entry) => sum + entry.duration, 0),
    longTaskSpans: long.map((entry) => [Math.round(entry.startTime - start), Math.round(entry.duration)]),
    answerChars: text.includes(answer) ? answer.length : -1,
    elements: run.container.firstElementChild?.childElementCount ?? 0,
  };
}

function finish(): void {
  mounted?.root.unmount();
  mounted?.container.remove();
  mounted = null;
}

declare global {
  interface Window {
    __bench: { prepare: typeof prepare; go: typeof go; finish: typeof finish; ready: true };
  }
}

window.__bench = { prepare, go, finish, ready: true };
