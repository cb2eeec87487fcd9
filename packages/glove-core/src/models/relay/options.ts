/** Request headers, or a function giving them for each request (e.g. a fresh session token). */
export type RelayHeaders = Record<string, string> | (() => Record<string, string> | Promise<Record<string, string>>);

/** Options of `createRelayModel`: where the relay is and what to send it. */
export interface RelayModelOptions {
  /** The relay's URL; relative URLs work in browsers (`/api/model`). */
  endpoint: string;
  /** fetch to use (default globalThis.fetch, looked up at each request). */
  fetch?: typeof fetch;
  /** Sent with every request, typically the credentials the relay's `authenticate` checks. */
  headers?: RelayHeaders;
  /** One of the relay's allowed models (default: the relay's first). */
  model?: string;
  /** Asked of the relay, which lowers it to its own cap. */
  maxTokens?: number;
  /** The adapter's name (default "relay:<model>" or "relay"). */
  name?: string;
  /** Used when a request carries no systemPrompt. */
  systemPrompt?: string;
  /**
   * What `supportsStructuredOutput` reports (default false). A structured-output request always
   * goes through the relay to the upstream adapter, which uses its provider's JSON-schema mode
   * when it has one; with false, Glove also spells the schema out in the system prompt, which
   * works whatever model the relay sits in front of. Set true only when every relay model has a
   * native mode (OpenAI, Anthropic, Bedrock, Gemini…), to save those prompt tokens.
   */
  nativeStructuredOutput?: boolean;
}
