import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ListRootsRequestSchema,
  type ClientCapabilities,
} from "@modelcontextprotocol/sdk/types.js";
import { ConfigurationError, type IGloveRunnable } from "glove-core";
import type { McpCatalogueEntry } from "../types.js";
import { soleCallDisplay } from "../call-displays.js";
import { cancellableHandlers } from "./cancellation.js";
import { answerElicitation } from "./elicitation.js";
import { answerSampling } from "./sampling.js";
import { ServerExtras } from "./server-extras.js";
import type { McpClientFeatureOptions, McpClientFeatures, McpFeatureHost, McpRoot } from "./types.js";

/** Client features bound to one Glove, with roots that can change while servers are connected. */
export interface GloveClientFeatures extends McpClientFeatures {
  /** The roots a server sees: `setRoots`, else the entry's `roots`, else the options' `roots`. */
  rootsFor(entry: Pick<McpCatalogueEntry, "id" | "roots">): McpRoot[];
  /**
   * Replaces the roots of one entry (or, with `id` undefined, the default for all) and sends
   * `notifications/roots/list_changed` to every live client that declared roots.
   */
  setRoots(id: string | undefined, roots: McpRoot[]): Promise<void>;
}

/**
 * Builds the client features a Glove offers its MCP servers: elicitation through its display
 * stack, sampling through its model, roots, and (with the Glove as host) resources as tools and
 * prompts as skills. Only configured features are declared, so a server never sees a capability
 * the app did not choose.
 */
export function gloveClientFeatures(host: McpFeatureHost, options: McpClientFeatureOptions): GloveClientFeatures {
  const overrides = new Map<string, McpRoot[]>();
  let defaults = options.roots;
  const live = new Map<Client, McpCatalogueEntry>();
  const extras = options.resources || options.prompts ? new ServerExtras(asGlove(host), options) : undefined;

  const rootsFor = (entry: Pick<McpCatalogueEntry, "id" | "roots">): McpRoot[] =>
    overrides.get(entry.id) ?? entry.roots ?? defaults ?? [];

  return {
    rootsFor,
    attach(client, entry) {
      const capabilities: ClientCapabilities = {};
      const offersRoots = defaults !== undefined || entry.roots !== undefined || overrides.has(entry.id);
      if (options.elicitation)
        capabilities.elicitation = {
          form: {},
          ...(options.elicitation !== true && options.elicitation.url ? { url: {} } : {}),
        };
      if (options.sampling) capabilities.sampling = {};
      if (offersRoots) capabilities.roots = { listChanged: true };
      client.registerCapabilities(capabilities);

      const track = options.elicitation || options.sampling ? cancellableHandlers(client) : undefined;
      if (options.elicitation && track) {
        const elicitation = options.elicitation === true ? {} : options.elicitation;
        client.setRequestHandler(ElicitRequestSchema, async (request, extra) => {
          const { signal, done } = track(extra.requestId, extra.signal);
          try {
            return await answerElicitation(
              host,
              entry.id,
              request.params,
              elicitation,
              signal,
              soleCallDisplay(client),
            );
          } finally {
            done();
          }
        });
      }
      if (options.sampling && track) {
        const sampling = options.sampling === true ? {} : options.sampling;
        client.setRequestHandler(CreateMessageRequestSchema, async (request, extra) => {
          const { signal, done } = track(extra.requestId, extra.signal);
          try {
            return await answerSampling(host, entry.id, request.params, sampling, signal);
          } finally {
            done();
          }
        });
      }
      if (offersRoots) {
        client.setRequestHandler(ListRootsRequestSchema, () => ({ roots: rootsFor(entry).map((r) => ({ ...r })) }));
        live.set(client, entry);
      }
      // Forget the client once its connection closes, keeping any handler set before us.
      const previous = client.onclose;
      client.onclose = () => {
        live.delete(client);
        extras?.closed(entry.id, client);
        previous?.();
      };
    },
    async connected(connection) {
      // The connection and its tools are already up; missing extras must not take them down.
      await extras?.connected(connection.namespace, connection.client).catch((error: unknown) => {
        console.warn(
          `glove-mcp: could not add the resources/prompts of "${connection.namespace}": ${error instanceof Error ? error.message : String(error)}`,
        );
      });
    },
    async setRoots(id, roots) {
      if (id === undefined) defaults = [...roots];
      else overrides.set(id, [...roots]);
      const targets = [...live.entries()].filter(([, entry]) => id === undefined || entry.id === id);
      await Promise.all(
        targets.map(([client]) =>
          client.sendRootsListChanged().catch(() => {
            live.delete(client); // not connected any more
          }),
        ),
      );
    },
  };
}

function asGlove(host: McpFeatureHost): IGloveRunnable {
  const candidate = host as Partial<IGloveRunnable>;
  if (typeof candidate.use !== "function" || typeof candidate.defineSkill !== "function") {
    throw new ConfigurationError(
      "glove-mcp: `resources` and `prompts` add tools and skills, so gloveClientFeatures needs the Glove itself as its host.",
    );
  }
  return host as IGloveRunnable;
}
