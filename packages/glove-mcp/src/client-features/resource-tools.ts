import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { ReadResourceResult, Resource, ResourceTemplate } from "@modelcontextprotocol/sdk/types.js";
import type { GloveFoldArgs, ToolResultData } from "glove-core";
import { bridgedToolName } from "../bridge.js";
import { messageOf } from "../errors.js";

/** Reads every page of a paginated list, stopping if a server repeats a cursor. */
export async function allPages<T>(
  read: (cursor: string | undefined) => Promise<{ items: T[]; nextCursor?: string | undefined }>,
): Promise<T[]> {
  const items: T[] = [];
  const seen = new Set<string>();
  let cursor: string | undefined;
  do {
    const page = await read(cursor);
    items.push(...page.items);
    cursor = page.nextCursor;
    if (cursor !== undefined && seen.has(cursor)) break;
    if (cursor !== undefined) seen.add(cursor);
  } while (cursor !== undefined);
  return items;
}

type Summary = Pick<Resource, "uri" | "name"> & Partial<Pick<Resource, "title" | "description" | "mimeType">>;

function summarize(r: Resource): Summary {
  return {
    uri: r.uri,
    name: r.name,
    ...(r.title ? { title: r.title } : {}),
    ...(r.description ? { description: r.description } : {}),
    ...(r.mimeType ? { mimeType: r.mimeType } : {}),
  };
}

/** What the model reads of a resource: text as is, binary as a short marker. */
export function resourceText(result: ReadResourceResult): string {
  return result.contents
    .map((c) =>
      "text" in c && typeof c.text === "string"
        ? c.text
        : `[binary ${c.mimeType ?? "resource"} ${c.uri}, ${Math.floor((String((c as { blob?: string }).blob ?? "").length * 3) / 4)} bytes]`,
    )
    .join("\n");
}

/**
 * `${id}__list_resources` and `${id}__read_resource`: the server's resources (and resource
 * templates) as two read-only tools, so the model can look before it reads.
 */
export function resourceTools(id: string, client: Client): Array<GloveFoldArgs<Record<string, unknown>>> {
  const list: GloveFoldArgs<Record<string, unknown>> = {
    name: bridgedToolName(id, "list_resources"),
    description: `Lists the resources (and URI templates) the "${id}" MCP server offers. Read one with ${bridgedToolName(id, "read_resource")}.`,
    jsonSchema: { type: "object", properties: {}, additionalProperties: false },
    requiresPermission: false,
    async do(_input, _display, _glove, signal): Promise<ToolResultData> {
      const options = signal ? { signal } : undefined;
      try {
        const resources = await allPages<Resource>(async (cursor) => {
          const page = await client.listResources(cursor ? { cursor } : {}, options);
          return { items: page.resources, nextCursor: page.nextCursor };
        });
        const templates = await allPages<ResourceTemplate>(async (cursor) => {
          const page = await client.listResourceTemplates(cursor ? { cursor } : {}, options);
          return { items: page.resourceTemplates, nextCursor: page.nextCursor };
        }).catch(() => []); // templates are optional; a server without them may refuse the method
        return {
          status: "success",
          data: {
            resources: resources.map(summarize),
            templates: templates.map((t) => ({
              uriTemplate: t.uriTemplate,
              name: t.name,
              ...(t.description ? { description: t.description } : {}),
            })),
          },
        };
      } catch (error) {
        return { status: "error", message: messageOf(error), data: null };
      }
    },
  };
  const read: GloveFoldArgs<Record<string, unknown>> = {
    name: bridgedToolName(id, "read_resource"),
    description: `Reads one resource of the "${id}" MCP server by URI (from ${bridgedToolName(id, "list_resources")} or a filled-in URI template).`,
    jsonSchema: {
      type: "object",
      properties: { uri: { type: "string", description: "The resource URI." } },
      required: ["uri"],
      additionalProperties: false,
    },
    requiresPermission: false,
    async do(input, _display, _glove, signal): Promise<ToolResultData> {
      const uri = typeof input?.uri === "string" ? input.uri : "";
      if (!uri) return { status: "error", message: `Give the resource's "uri" (see ${list.name}).`, data: null };
      try {
        const result = await client.readResource({ uri }, signal ? { signal } : undefined);
        return { status: "success", data: resourceText(result), renderData: result.contents };
      } catch (error) {
        return { status: "error", message: messageOf(error), data: null };
      }
    },
  };
  return [list, read];
}
