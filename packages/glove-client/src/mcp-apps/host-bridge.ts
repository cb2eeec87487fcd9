import { grantedCsp } from "./app-csp.js";
import { hostContext, maxHeightOf, MCP_APPS_PROTOCOL_VERSION } from "./host-context.js";
import {
  errorAnswer,
  INTERNAL_ERROR,
  INVALID_PARAMS,
  METHOD_NOT_FOUND,
  readMessage,
  REFUSED,
  type JsonRpcAnswer,
  type JsonRpcRequest,
} from "./json-rpc.js";
import type { McpAppHostOptions, McpAppSlotProps } from "./types.js";

/** Where the bridge reports the frame's size (`ui/notifications/size-changed`, clamped). */
export type SizeListener = (size: { height?: number }) => void;

function textOf(content: unknown): string {
  if (!Array.isArray(content)) return "";
  return content
    .filter(
      (block): block is { type: "text"; text: string } => block?.type === "text" && typeof block.text === "string",
    )
    .map((block) => block.text)
    .join("\n");
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * The host side of the MCP Apps postMessage protocol for one sandboxed app frame. It answers
 * only messages whose source is that frame's window and whose origin is the opaque "null" of a
 * sandbox without allow-same-origin: another frame, a window the app opened, or a page script
 * forging either is ignored. Nothing is sent to the app before it says `initialized`.
 */
export class McpAppHostBridge {
  #initialized = false;
  readonly #frame: HTMLIFrameElement;
  readonly #app: McpAppSlotProps;
  #options: McpAppHostOptions;
  readonly #onSize: SizeListener;
  readonly #listener = (event: MessageEvent) => this.#receive(event);

  constructor(frame: HTMLIFrameElement, app: McpAppSlotProps, options: McpAppHostOptions, onSize: SizeListener) {
    this.#frame = frame;
    this.#app = app;
    this.#options = options;
    this.#onSize = onSize;
  }

  start(): void {
    window.addEventListener("message", this.#listener);
  }

  stop(): void {
    window.removeEventListener("message", this.#listener);
  }

  /** New handlers or theme; a changed host context is sent to an initialized app. */
  update(options: McpAppHostOptions): void {
    const before = JSON.stringify(this.#context());
    this.#options = options;
    if (this.#initialized && JSON.stringify(this.#context()) !== before)
      this.#notify("ui/notifications/host-context-changed", this.#context());
  }

  #context(): Record<string, unknown> {
    return hostContext(this.#app, this.#options, this.#frame.clientWidth);
  }

  #post(message: Record<string, unknown>): void {
    // An opaque-origin frame can only be addressed with "*"; the window itself is the target.
    this.#frame.contentWindow?.postMessage({ jsonrpc: "2.0", ...message }, "*");
  }

  #notify(method: string, params: Record<string, unknown>): void {
    this.#post({ method, params });
  }

  #receive(event: MessageEvent): void {
    if (event.source === null || event.source !== this.#frame.contentWindow || event.origin !== "null") return;
    const message = readMessage(event.data);
    if (!message) return;
    if ("notification" in message) {
      this.#onNotification(message.notification.method, message.notification.params);
      return;
    }
    const { request } = message;
    void this.#answer(request).then((answer) => this.#post({ id: request.id, ...answer }));
  }

  #onNotification(method: string, params: Record<string, unknown>): void {
    if (method === "ui/notifications/initialized" && !this.#initialized) {
      this.#initialized = true;
      this.#notify("ui/notifications/tool-input", { arguments: this.#app.toolInput });
      this.#notify("ui/notifications/tool-result", this.#app.toolResult);
    } else if (method === "ui/notifications/size-changed") {
      const height =
        typeof params.height === "number" && Number.isFinite(params.height)
          ? Math.min(Math.ceil(params.height), maxHeightOf(this.#options))
          : undefined;
      // A height of 0 (an app measured before it rendered anything) is not applied: the browser
      // stops rendering a zero-area frame, animation frames included, so an app that measures in
      // one (the MCP Apps SDK does) could never report its real height and would stay invisible.
      if (height !== undefined && height > 0) this.#onSize({ height });
    } else if (method === "notifications/message") {
      this.#options.onLog?.(
        { ...(typeof params.level === "string" ? { level: params.level } : {}), data: params.data },
        this.#app,
      );
    }
  }

  async #answer(request: JsonRpcRequest): Promise<JsonRpcAnswer> {
    const { method, params } = request;
    if (method === "ui/initialize") return { result: this.#initializeResult(params) };
    if (method === "ping") return { result: {} };
    if (!this.#initialized) return errorAnswer(REFUSED, `${method} before ui/notifications/initialized`);
    try {
      switch (method) {
        case "tools/call":
          return await this.#callTool(params);
        case "ui/message":
          return await this.#message(params);
        case "ui/open-link":
          return { result: this.#openLink(params) };
        case "ui/request-display-mode":
          return { result: { mode: "inline" } };
        default:
          return errorAnswer(METHOD_NOT_FOUND, `This host does not support ${method}.`);
      }
    } catch (error) {
      return errorAnswer(INTERNAL_ERROR, messageOf(error));
    }
  }

  #initializeResult(params: Record<string, unknown>): Record<string, unknown> {
    const asked = params.protocolVersion;
    return {
      protocolVersion:
        typeof asked === "string" && asked === MCP_APPS_PROTOCOL_VERSION ? asked : MCP_APPS_PROTOCOL_VERSION,
      hostInfo: { name: "glove-react", version: "0.1.0" },
      hostCapabilities: {
        ...(this.#options.callTool ? { serverTools: {} } : {}),
        ...(this.#options.sendMessage ? { message: { text: {} } } : {}),
        openLinks: {},
        logging: {},
        sandbox: { csp: grantedCsp(this.#app.resource.csp), permissions: {} },
      },
      hostContext: this.#context(),
    };
  }

  async #callTool(params: Record<string, unknown>): Promise<JsonRpcAnswer> {
    const { callTool } = this.#options;
    if (!callTool) return errorAnswer(REFUSED, "This host does not run tools for apps.");
    const name = params.name;
    const args = params.arguments ?? {};
    if (typeof name !== "string" || args === null || typeof args !== "object" || Array.isArray(args)) {
      return errorAnswer(INVALID_PARAMS, "tools/call needs a tool name and an arguments object.");
    }
    try {
      const result = await callTool({ app: this.#app, name, arguments: args as Record<string, unknown> });
      return { result: { ...result } };
    } catch (error) {
      return errorAnswer(REFUSED, messageOf(error));
    }
  }

  async #message(params: Record<string, unknown>): Promise<JsonRpcAnswer> {
    const text = textOf(params.content).trim();
    if (!this.#options.sendMessage || params.role !== "user" || !text) return { result: { isError: true } };
    await this.#options.sendMessage(text, this.#app);
    return { result: {} };
  }

  /** Only web links, in a new tab that gets no handle on this page. */
  #openLink(params: Record<string, unknown>): Record<string, unknown> {
    let url: URL;
    try {
      url = new URL(String(params.url));
    } catch {
      return { isError: true };
    }
    if (url.protocol !== "https:" && url.protocol !== "http:") return { isError: true };
    window.open(url.href, "_blank", "noopener,noreferrer");
    return {};
  }
}
