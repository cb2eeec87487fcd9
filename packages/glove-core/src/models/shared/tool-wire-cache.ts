import type { Tool } from "../../types/index.js";
import { schemaSource } from "./messages.js";

/** Forms kept per schema: a tool whose description is computed (a getter) may show several over time. */
const FORMS_PER_SCHEMA = 8;

/**
 * A wire form of tools shared by every adapter that uses the same encoder (create one per wire
 * format, at module level). It is keyed by the tool's definition — its schema object (see
 * `schemaSource`), name and current description — not by the Tool object: each conversation's
 * Glove has its own Tool objects, but they come from the same definitions, so a thousand
 * conversations hold and encode each tool once. A description that changes (skills added after
 * build) is encoded afresh.
 */
export class ToolWireCache<T> {
  /** Oldest first. A short list compared by name and description: no key string built and hashed per call. */
  private readonly bySchema = new WeakMap<object, Array<{ name: string; description: string; wire: T }>>();

  constructor(private readonly encode: (tool: Tool<unknown>) => T) {}

  get(tool: Tool<unknown>): T {
    const source = schemaSource(tool);
    let forms = this.bySchema.get(source);
    if (!forms) this.bySchema.set(source, (forms = []));
    const { name } = tool;
    const description = tool.description;
    for (const form of forms) if (form.name === name && form.description === description) return form.wire;
    const wire = this.encode(tool);
    if (forms.length >= FORMS_PER_SCHEMA) forms.shift();
    forms.push({ name, description, wire });
    return wire;
  }
}
