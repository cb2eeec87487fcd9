import type { ModelAdapter, ModelPromptResult, NotifySubscribersFunction, PromptRequest } from "../../types/index.js";

/** Loads the real adapter on first use; forwards everything to it. */
export class LazyAdapter implements ModelAdapter {
  private inner: ModelAdapter | undefined;
  private loading: Promise<ModelAdapter> | undefined;
  private systemPrompt: string | undefined;

  /**
   * @param supportsStructuredOutput what the adapter it loads will say, known up front so the
   *   runtime can decide before the first prompt (undefined: the loaded adapter's own answer).
   */
  constructor(
    readonly name: string,
    private readonly structuredOutput: boolean | undefined,
    private readonly load: () => Promise<ModelAdapter>,
  ) {}

  get supportsStructuredOutput(): boolean | undefined {
    return this.inner?.supportsStructuredOutput ?? this.structuredOutput;
  }

  setSystemPrompt(systemPrompt: string): void {
    this.systemPrompt = systemPrompt;
    this.inner?.setSystemPrompt(systemPrompt);
  }

  /** The loaded adapter (loads it if needed). */
  async adapter(): Promise<ModelAdapter> {
    if (this.inner) return this.inner;
    this.loading ??= this.load().then((adapter) => {
      if (this.systemPrompt !== undefined) adapter.setSystemPrompt(this.systemPrompt);
      this.inner = adapter;
      return adapter;
    });
    return this.loading;
  }

  async prompt(
    request: PromptRequest,
    notify: NotifySubscribersFunction,
    signal?: AbortSignal,
  ): Promise<ModelPromptResult> {
    const adapter = this.inner ?? (await this.adapter());
    return adapter.prompt(request, notify, signal);
  }
}
