import type { ChunkChoice, StreamedCall } from "./wire-types.js";

type ToolCallDelta = NonNullable<NonNullable<ChunkChoice["delta"]>["tool_calls"]>[number];

/**
 * Assembles streamed tool calls from their deltas. A delta names its call by
 * id, by index, or both; providers differ in which they repeat, so a call is
 * found by id first, then by index when the ids do not contradict.
 */
export class ToolCallDeltas {
  readonly calls: StreamedCall[] = [];
  private readonly byIndex = new Map<number, StreamedCall>();
  private readonly byId = new Map<string, StreamedCall>();

  add(d: ToolCallDelta): void {
    let call = d.id ? this.byId.get(d.id) : undefined;
    if (!call && d.index !== undefined) {
      const atIndex = this.byIndex.get(d.index);
      if (atIndex && (!d.id || atIndex.id === d.id)) call = atIndex;
    }
    if (!call) {
      call = { id: d.id ?? `call_${this.calls.length}`, name: "", args: "" };
      this.calls.push(call);
      if (d.id) this.byId.set(d.id, call);
      this.byIndex.set(d.index ?? this.calls.length - 1, call);
    }
    if (d.function?.name) call.name += d.function.name;
    if (d.function?.arguments) call.args += d.function.arguments;
  }
}
