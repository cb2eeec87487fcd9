import { argumentsValue, type WireShape } from "../shared/wire-shape.js";
import { callExtras, mergeExtras } from "./call-extras.js";
import type { StreamedCall } from "./wire-types.js";

/**
 * Assembles streamed tool calls from their deltas. A delta names its call by
 * id, by index, or both; providers differ in which they repeat, so a call is
 * found by id first, then by index when the ids do not contradict. Every field
 * is checked: a delta of the wrong shape is a ProviderError naming it. Fields the adapter does
 * not read are kept as the call's extras (./call-extras.ts), merged over the deltas.
 */
export class ToolCallDeltas {
  readonly calls: StreamedCall[] = [];
  private readonly byIndex = new Map<number, StreamedCall>();
  private readonly byId = new Map<string, StreamedCall>();

  constructor(private readonly shape: WireShape) {}

  /** Adds one element of `delta.tool_calls`, found at `path`. */
  add(value: unknown, path: string): void {
    const shape = this.shape;
    const d = shape.object(value, path);
    const id = shape.optString(d["id"], `${path}.id`) || undefined;
    const index = shape.optIndex(d["index"], `${path}.index`);
    const fn = shape.optObject(d["function"], `${path}.function`);
    const name = fn && shape.optString(fn["name"], `${path}.function.name`);
    const args = fn && argumentsValue(shape, fn["arguments"], `${path}.function.arguments`);

    let call = id ? this.byId.get(id) : undefined;
    if (!call && index !== undefined) {
      const atIndex = this.byIndex.get(index);
      if (atIndex && (!id || atIndex.id === id)) call = atIndex;
    }
    if (!call) {
      call = { id: id ?? `call_${this.calls.length}`, name: "", args: "" };
      this.calls.push(call);
      if (id) this.byId.set(id, call);
      this.byIndex.set(index ?? this.calls.length - 1, call);
    }
    if (name) call.name += name;
    const extras = callExtras(d);
    if (extras) call.extras = call.extras ? mergeExtras(call.extras, extras) : extras;
    if (!args) return;
    if ("text" in args) {
      if (!args.text) return;
      if (call.input)
        throw shape.fail(`${path}.function.arguments is text, but this call's arguments already arrived as an object`);
      call.args += args.text;
    } else {
      if (call.input || call.args.trim())
        throw shape.fail(
          `${path}.function.arguments is an object, but this call's arguments already arrived in another delta`,
        );
      call.input = args.object;
    }
  }
}
