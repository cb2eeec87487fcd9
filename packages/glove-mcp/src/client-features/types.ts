import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { CreateMessageRequest, ElicitRequestFormParams } from "@modelcontextprotocol/sdk/types.js";
import type { DisplayManagerAdapter, ModelAdapter, PermissionStatus, StoreAdapter } from "glove-core";
import type { McpConnection } from "../connect.js";
import type { McpCatalogueEntry } from "../types.js";

/** A filesystem or URI root the client offers a server (`roots/list`). */
export interface McpRoot {
  /** A `file://` URI (what servers expect; other schemes are passed through). */
  uri: string;
  /** A label servers may show. */
  name?: string;
}

/** What an `mcp_elicitation` slot receives. */
export interface McpElicitationInput {
  /** The catalogue entry id of the asking server. */
  serverId: string;
  /** What the server asks the user, to show above the form. */
  message: string;
  /** The restricted JSON Schema (flat object of primitives) the answer's content must match. */
  requestedSchema: ElicitRequestFormParams["requestedSchema"];
  /** Why the previous answer was refused (the slot was pushed again). */
  issues?: Array<{ path: string; message: string }>;
}

/**
 * What an `mcp_url_elicitation` slot receives: the server asks to send the user to a page of its
 * own (to sign in to a third party, to pay) outside the conversation. Answer `accept` once the
 * user chose to open `url` (the UI opens it, in a new tab without an opener), `decline` or `cancel`.
 */
export interface McpUrlElicitationInput {
  serverId: string;
  /** Why the server wants the user there, to show with the link. */
  message: string;
  /** An http(s) URL (other schemes are declined without asking). */
  url: string;
  /** The server's id for this interaction; its completion notification names it. */
  elicitationId: string;
}

/** How a URL elicitation is answered: no content, only whether the user goes. */
export type McpUrlElicitationAnswer = { action: "accept" | "decline" | "cancel" };

/** How an elicitation is answered: accept with content, or decline / cancel without. */
export type McpElicitationAnswer =
  | { action: "accept"; content: Record<string, string | number | boolean | string[]> }
  | { action: "decline" }
  | { action: "cancel" };

/** Elicitation settings: who answers when there is no human. */
export interface McpElicitationOptions {
  /**
   * Answers instead of a human in serverMode (or when no display manager is present).
   * Default: decline. The answer is validated like a human's; an invalid one becomes decline.
   */
  policy?: (request: McpElicitationInput) => McpElicitationAnswer | Promise<McpElicitationAnswer>;
  /** Invalid answers resolved on the slot before the request is declined. Default 3. */
  maxInvalidAnswers?: number;
  /**
   * Declares URL-mode elicitation too: a server may ask to send the user to a URL, shown as an
   * `mcp_url_elicitation` slot (`McpUrlElicitationInput`). Only with a UI that renders that slot;
   * in serverMode (or without a display manager) such a request is declined. Default false.
   */
  url?: boolean;
}

/** What a sampling permission callback sees. */
export interface McpSamplingRequest {
  /** The catalogue entry id of the asking server. */
  serverId: string;
  /** The request as the server sent it (messages, systemPrompt, maxTokens, preferences…). */
  params: CreateMessageRequest["params"];
}

/** Sampling settings: which model answers and who allows it. */
export interface McpSamplingOptions {
  /**
   * Decides whether this server may use the model for this request. Default: the Glove's
   * permission mechanism under the name `${serverId}__sampling` (store, then a `permission_request`
   * slot; denied in serverMode). Only `true` or "granted" allows; "unset" counts as denied.
   */
  permission?: (request: McpSamplingRequest) => boolean | PermissionStatus | Promise<boolean | PermissionStatus>;
  /** The model that answers. Default: the Glove's model at the time of the request. */
  model?: ModelAdapter;
}

/** Which client features a Glove offers its MCP servers. Each is declared only when configured. */
export interface McpClientFeatureOptions {
  /** `elicitation/create` through the display stack (`true` = defaults). */
  elicitation?: boolean | McpElicitationOptions;
  /** `sampling/createMessage` through the Glove's model, behind a permission check. */
  sampling?: boolean | McpSamplingOptions;
  /** Roots offered to every server without its own `roots` (catalogue entry or `setRoots`). */
  roots?: McpRoot[];
  /**
   * The server's resources as two read-only tools, `${id}__list_resources` and
   * `${id}__read_resource` (needs the host to be a Glove). Default false.
   */
  resources?: boolean;
  /** Each server prompt as a skill `/${id}__${prompt}`, exposed to the model too (needs a Glove). Default false. */
  prompts?: boolean;
}

/** The parts of a Glove the client features use. */
export interface McpFeatureHost {
  readonly displayManager: DisplayManagerAdapter;
  readonly model: ModelAdapter;
  readonly serverMode: boolean;
  readonly store?: StoreAdapter;
}

/**
 * Client-side MCP features for `connectMcp({ features })`: declares the capabilities and installs
 * the request handlers on each new client before it connects.
 */
export interface McpClientFeatures {
  attach(client: Client, entry: McpCatalogueEntry): void;
  /** Called by the session once a connection is up and its tools are bridged; never throws. */
  connected?(connection: McpConnection): Promise<void>;
}
