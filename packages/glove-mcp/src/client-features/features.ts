import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ListRootsRequestSchema,
  type ClientCapabilities,
} from "@modelcontextprotocol/sdk/types.js";
import type { McpCatalogueEntry } from "../types.js";
import { answerElicitation } from "./elicitation.js";
import { answerSampling } from "./sampling.js";
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
 * stack, sampling through its model, and roots. Only configured features are declared, so a
 * server never sees a capability the app did not choose.
 */
export function gloveClientFeatures(host: McpFeatureHost, options: McpClientFeatureOptions): GloveClientFeatures {
  const overrides = new Map<string, McpRoot[]>();
  let defaults = options.roots;
  const live = new Map<Client, McpCatalogueEntry>();

  const rootsFor = (entry: Pick<McpCatalogueEntry, "id" | "roots">): McpRoot[] =>
    overrides.get(entry.id) ?? entry.roots ?? defaults ?? [];

  return {
    rootsFor,
    attach(client, entry) {
      const capabilities: ClientCapabilities = {};
      const offersRoots = defaults !== undefined || entry.roots !== undefined || overrides.has(entry.id);
      if (options.elicitation) capabilities.elicitation = { form: {} };
      if (options.sampling) capabilities.sampling = {};
      if (offersRoots) capabilities.roots = { listChanged: true };
      client.registerCapabilities(capabilities);

      if (options.elicitation) {
        const elicitation = options.elicitation === true ? {} : options.elicitation;
        client.setRequestHandler(ElicitRequestSchema, (request, extra) =>
          answerElicitation(host, entry.id, request.params, elicitation, extra.signal),
        );
      }
      if (options.sampling) {
        const sampling = options.sampling === true ? {} : options.sampling;
        client.setRequestHandler(CreateMessageRequestSchema, (request, extra) =>
          answerSampling(host, entry.id, request.params, sampling, extra.signal),
        );
      }
      if (offersRoots) {
        client.setRequestHandler(ListRootsRequestSchema, () => ({ roots: rootsFor(entry).map((r) => ({ ...r })) }));
        live.set(client, entry);
        // Forget the client once its connection closes, keeping any handler set before us.
        const previous = client.onclose;
        client.onclose = () => {
          live.delete(client);
          previous?.();
        };
      }
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
