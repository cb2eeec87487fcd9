import type { Writable } from "node:stream";
import { PERMISSION_REQUEST_RENDERER, TASK_TOOL_NAME } from "glove-core";
import type {
  DisplayManagerAdapter,
  PermissionAnswer,
  PermissionRequestInput,
  Slot,
  SubscriberAdapter,
  SubscriberEvent,
  SubscriberEventDataMap,
  SubscriberEventType,
  Task,
  ToolResultData,
} from "glove-core";
import { CONFIRM_RENDERER, type ConfirmInput } from "./tools/clear-notes.js";

/** Asks the user one question and resolves with the line they answer. */
export interface Prompter {
  ask(question: string, signal?: AbortSignal): Promise<string>;
}

/** A prompter for non-interactive runs: prints the question and answers it itself. */
export function autoPrompter(out: Writable, answer: string, why: string): Prompter {
  return {
    async ask(question) {
      out.write(`${question}${answer}   (auto-answered: ${why})\n`);
      return answer;
    },
  };
}

const TASK_MARK: Record<Task["status"], string> = { completed: "[x]", in_progress: "[>]", pending: "[ ]" };

/**
 * Renders runtime events in the terminal (streamed text, tool calls, the task
 * list, compaction) and answers display-stack slots (permission prompts and
 * confirmations) through a Prompter.
 */
export class TerminalUi implements SubscriberAdapter {
  private streaming = false;
  private readonly handled = new Set<string>();
  private prompts: Promise<unknown> = Promise.resolve();
  /** Questions on screen, by slot: taken down when their slot leaves the stack (e.g. Ctrl-C aborted the request). */
  private readonly open = new Map<string, AbortController>();

  constructor(
    private readonly out: Writable,
    private readonly prompter: Prompter,
  ) {}

  /** Starts answering slots of `display`; returns the unsubscribe function. */
  watch(display: DisplayManagerAdapter): () => void {
    return display.subscribe((stack) => {
      const present = new Set(stack.map((slot) => slot.id));
      for (const [id, question] of this.open) if (!present.has(id)) question.abort();
      for (const slot of stack) {
        if (this.handled.has(slot.id)) continue;
        this.handled.add(slot.id);
        // Queued, so two slots never ask at the same time; the listener itself never blocks the tool.
        this.prompts = this.prompts.then(() => this.answer(display, slot));
      }
    });
  }

  async record<T extends SubscriberEventType>(type: T, data: SubscriberEventDataMap[T]): Promise<void> {
    this.render({ type, ...data } as SubscriberEvent);
  }

  /** Prints a whole line, first ending any text still being streamed. */
  line(text: string): void {
    this.endStream();
    this.out.write(`${text}\n`);
  }

  private render(event: SubscriberEvent): void {
    switch (event.type) {
      case "text_delta":
        if (!this.streaming) this.out.write("agent> ");
        this.streaming = true;
        this.out.write(event.text);
        return;
      case "model_response":
        if (event.text) this.line(`agent> ${event.text}`);
        return;
      case "model_response_complete":
        this.endStream();
        return;
      case "tool_use":
        // The task list itself is drawn when the result arrives.
        if (event.name === TASK_TOOL_NAME) this.line(`  -> ${event.name} (updating the task list)`);
        else this.line(`  -> ${event.name} ${short(JSON.stringify(event.input ?? {}))}`);
        return;
      case "tool_use_result":
        this.renderResult(event.tool_name, event.result);
        return;
      case "compaction_start":
        this.line(`  ~~ compacting the conversation (context ~${event.current_token_consumption} tokens)...`);
        return;
      case "compaction_end":
        this.line(`  ~~ compaction done: the model now sees this summary instead of the history:`);
        this.line(indent(event.summary_message.text, "     "));
        return;
      default:
        return;
    }
  }

  private renderResult(toolName: string, result: ToolResultData): void {
    const tasks = taskList(result.renderData);
    if (toolName === TASK_TOOL_NAME && tasks) {
      this.line("  Tasks:");
      for (const task of tasks) {
        const label = task.status === "in_progress" ? task.activeForm : task.content;
        this.line(`    ${TASK_MARK[task.status]} ${label}`);
      }
      return;
    }
    if (result.status === "success") this.line(`  <- ${toolName}: ${short(asText(result.data))}`);
    else this.line(`  <- ${toolName} ${result.status}: ${short(result.message ?? asText(result.data))}`);
  }

  private async answer(display: DisplayManagerAdapter, slot: Slot<unknown>): Promise<void> {
    // Queued behind another question: the slot may be gone already.
    if (!display.stack.some((s) => s.id === slot.id)) return;
    const question = new AbortController();
    this.open.set(slot.id, question);
    try {
      await this.ask(display, slot, question.signal);
    } finally {
      this.open.delete(slot.id);
    }
  }

  private async ask(display: DisplayManagerAdapter, slot: Slot<unknown>, signal: AbortSignal): Promise<void> {
    try {
      if (slot.renderer === PERMISSION_REQUEST_RENDERER) {
        const request = slot.input as PermissionRequestInput;
        this.line(
          `  ?? ${request.tool_name} needs your permission to run with ${short(JSON.stringify(request.input))}`,
        );
        const reply = (await this.prompter.ask(`Allow ${request.tool_name}? [y/N/always] `, signal))
          .trim()
          .toLowerCase();
        if (signal.aborted) return this.line("  (prompt closed)");
        const always = reply === "always" || reply === "a";
        const granted = always || reply === "y" || reply === "yes";
        const answer: PermissionAnswer = { granted, remember: always };
        this.line(granted ? `  permission granted${always ? " (remembered)" : ""}` : "  permission denied");
        display.resolve(slot.id, answer);
      } else if (slot.renderer === CONFIRM_RENDERER) {
        const { question } = slot.input as ConfirmInput;
        this.endStream();
        const reply = (await this.prompter.ask(`${question} [y/N] `, signal)).trim().toLowerCase();
        if (signal.aborted) return this.line("  (prompt closed)");
        display.resolve(slot.id, reply === "y" || reply === "yes");
      } else {
        this.line(`  (display slot "${slot.renderer}" has no terminal renderer: ${short(JSON.stringify(slot.input))})`);
      }
    } catch (error) {
      display.reject(slot.id, error);
    }
  }

  private endStream(): void {
    if (!this.streaming) return;
    this.streaming = false;
    this.out.write("\n");
  }
}

function taskList(renderData: unknown): Task[] | undefined {
  if (typeof renderData !== "object" || renderData === null || !("tasks" in renderData)) return undefined;
  const tasks = renderData.tasks;
  return Array.isArray(tasks) ? (tasks as Task[]) : undefined;
}

function asText(value: unknown): string {
  return typeof value === "string" ? value : JSON.stringify(value ?? null);
}

/** One line, at most 100 characters. */
function short(text: string): string {
  const flat = text.replace(/\s*\n\s*/g, " | ");
  return flat.length > 100 ? `${flat.slice(0, 97)}...` : flat;
}

function indent(text: string, prefix: string): string {
  return text
    .split("\n")
    .map((l) => prefix + l)
    .join("\n");
}
