import type {
  Message,
  ModelAdapter,
  ModelPromptResult,
  NotifySubscribersFunction,
  PromptRequest,
  ToolCall,
} from "../types/index.js";
import { AbortError, GloveError } from "../errors.js";

/** One model turn to play: text, tool calls, or both. */
export interface ScriptedTurn {
  text?: string;
  toolCalls?: Array<{ name: string; input: unknown; id?: string }>;
  reasoning?: string;
  stop_reason?: string;
  /** Override the token counts reported for this turn. */
  tokens_in?: number;
  tokens_out?: number;
  /** Throw this error instead of answering (after `delayMs`). */
  error?: Error;
}

/** A turn, or a function that builds one from the request it answers. */
export type ScriptedStep = ScriptedTurn | ((request: PromptRequest, callIndex: number) => ScriptedTurn);

/** How a ScriptedModel plays its script: streamed or not, how fast, and what when it runs out. */
export interface ScriptedModelOptions {
  /** Emit text_delta/tool_use/model_response_complete (default) or one model_response. */
  stream?: boolean;
  name?: string;
  /** Pause between streamed chunks (and before a non-streamed answer), honouring abort. */
  delayMs?: number;
  /** Characters per text_delta. Default: split on word boundaries. */
  chunkSize?: number;
  /** Keep a copy of every request in `requests` (default true; benchmarks turn it off). */
  record?: boolean;
  /** Played when the script has run out, instead of throwing. */
  fallback?: ScriptedStep;
}

/** Rough token estimate (4 characters a token), enough for compaction thresholds in tests. */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

function requestSize(request: PromptRequest): number {
  let chars = request.systemPrompt?.length ?? 0;
  for (const m of request.messages) {
    chars += m.text.length;
    if (m.tool_calls) chars += JSON.stringify(m.tool_calls).length;
    if (m.tool_results) for (const r of m.tool_results) chars += JSON.stringify(r.result.data ?? null).length;
  }
  return Math.ceil(chars / 4);
}

/**
 * A ModelAdapter that plays scripted turns through the real event contract of a
 * streaming (or non-streaming) adapter. It records every request it receives,
 * honours the abort signal, and reports token counts, so agents can be tested
 * without a network or an API key.
 */
export class ScriptedModel implements ModelAdapter {
  readonly name: string;
  /** Every request received, in order (with the system prompt it carried). */
  readonly requests: PromptRequest[] = [];
  private readonly steps: ScriptedStep[];
  private systemPrompt = "";
  private calls = 0;

  constructor(
    steps: ScriptedStep[] = [],
    private readonly options: ScriptedModelOptions = {},
  ) {
    this.steps = [...steps];
    this.name = options.name ?? "scripted";
  }

  /** Adds more turns to the end of the script. */
  push(...steps: ScriptedStep[]): this {
    this.steps.push(...steps);
    return this;
  }

  /** Turns not yet played. */
  get remaining(): number {
    return this.steps.length;
  }

  /** The prompt last set with setSystemPrompt (adapters should prefer the request's). */
  get lastSetSystemPrompt(): string {
    return this.systemPrompt;
  }

  setSystemPrompt(systemPrompt: string): void {
    this.systemPrompt = systemPrompt;
  }

  async prompt(
    request: PromptRequest,
    notify: NotifySubscribersFunction,
    signal?: AbortSignal,
  ): Promise<ModelPromptResult> {
    const index = this.calls++;
    // The runtime's array keeps growing after the call: record a snapshot.
    if (this.options.record !== false) this.requests.push({ ...request, messages: request.messages.slice() });
    checkAbort(signal);
    const step = this.steps.shift() ?? this.options.fallback;
    if (!step) {
      throw new GloveError(
        `ScriptedModel "${this.name}" ran out of turns after ${index} calls. Add turns with push() or set a fallback.`,
        { code: "GLOVE_SCRIPT_EXHAUSTED" },
      );
    }
    const turn = typeof step === "function" ? step(request, index) : step;
    if (turn.error) {
      await this.pause(signal);
      throw turn.error;
    }
    const text = turn.text ?? "";
    const toolCalls: ToolCall[] = (turn.toolCalls ?? []).map((c, i) => ({
      tool_name: c.name,
      input_args: c.input,
      id: c.id ?? `scripted_${index}_${i}`,
    }));
    const tokens_in = turn.tokens_in ?? requestSize(request);
    const tokens_out = turn.tokens_out ?? estimateTokens(text) + toolCalls.length * 10;
    const stop_reason = turn.stop_reason ?? (toolCalls.length ? "tool_use" : "end_turn");
    const summary = {
      text,
      tool_calls: toolCalls.length ? toolCalls : undefined,
      stop_reason,
      tokens_in,
      tokens_out,
    };

    if (this.options.stream === false) {
      await this.pause(signal);
      await notify("model_response", summary);
    } else {
      for (const chunk of this.chunks(text)) {
        await this.pause(signal);
        await notify("text_delta", { text: chunk });
      }
      for (const call of toolCalls) {
        await this.pause(signal);
        await notify("tool_use", { id: call.id!, name: call.tool_name, input: call.input_args });
      }
      checkAbort(signal);
      await notify("model_response_complete", summary);
    }

    const message: Message = { sender: "agent", text };
    if (toolCalls.length) message.tool_calls = toolCalls;
    if (turn.reasoning) message.reasoning_content = turn.reasoning;
    return { messages: [message], tokens_in, tokens_out };
  }

  private chunks(text: string): string[] {
    if (!text) return [];
    const size = this.options.chunkSize;
    if (size && size > 0) {
      const out: string[] = [];
      for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
      return out;
    }
    return text.match(/\S+\s*|\s+/g) ?? [text];
  }

  private async pause(signal?: AbortSignal): Promise<void> {
    const ms = this.options.delayMs ?? 0;
    // An already-aborted signal never fires "abort" again: without this check the
    // pause would sit out the whole delay before noticing.
    checkAbort(signal);
    if (ms > 0) {
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => {
          signal?.removeEventListener("abort", onAbort);
          resolve();
        }, ms);
        const onAbort = () => {
          clearTimeout(timer);
          reject(new AbortError());
        };
        signal?.addEventListener("abort", onAbort, { once: true });
      });
    }
    checkAbort(signal);
  }
}

function checkAbort(signal?: AbortSignal): void {
  if (signal?.aborted) throw new AbortError();
}
