/**
 * Recorded Bedrock streams under every chunking, including cuts inside binary frames (prelude,
 * headers, payload, CRC), and the frame codec checked against a frame AWS produced.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { Message } from "glove-core";
import { EventStreamDecoder, encodeEventStreamMessage } from "../../../../src/models/shared/aws.js";
import {
  expectAnyCutReadsWhole,
  expectStandardCutsReadWhole,
  replayFetch,
  splitAt,
  type Chunking,
  type RecordedResponse,
} from "../support/index.js";
import { adapter, DIR, recorded } from "./event-stream.js";

const messages: Message[] = [{ sender: "user", text: "hi" }];

async function outcome(response: RecordedResponse, cut: Chunking): Promise<unknown> {
  const { fetch } = replayFetch([{ response, chunking: cut }]);
  const seen: Array<{ type: string; data: unknown }> = [];
  try {
    const result = await adapter({ fetch, maxRetries: 0 }).prompt(
      { messages },
      async (type, data) => void seen.push({ type, data }),
    );
    return { result, events: seen };
  } catch (error) {
    const e = error as {
      name: string;
      status?: number;
      providerCode?: string;
      retryable?: boolean;
      providerMessage?: string;
    };
    return {
      error: {
        name: e.name,
        status: e.status,
        code: e.providerCode,
        retryable: e.retryable,
        message: e.providerMessage,
      },
      events: seen,
    };
  }
}

/** Offsets at every part of every frame: around the prelude, inside the headers, one byte into the payload, inside the trailing CRC. */
function insideFrames(body: Uint8Array): number[] {
  const offsets: number[] = [];
  const view = new DataView(body.buffer, body.byteOffset, body.byteLength);
  for (let start = 0; start + 12 <= body.length;) {
    const total = view.getUint32(start);
    const headers = view.getUint32(start + 4);
    offsets.push(
      start + 1,
      start + 4,
      start + 8,
      start + 11,
      start + 12,
      start + 13,
      start + 12 + headers,
      start + 13 + headers,
      start + total - 2,
    );
    start += total;
  }
  return offsets;
}

const STREAMS = ["reasoning-signed", "redacted-tool-call", "throttled", "model-stream-error"];

describe("the frame codec against a published ConverseStream frame", () => {
  it("decodes the recorded exception frame (both CRCs check) and re-encodes it byte for byte", () => {
    const bytes = new Uint8Array(readFileSync(join(DIR, "model-stream-error.bin")));
    const [frame, ...rest] = new EventStreamDecoder().push(bytes);
    expect(rest).toEqual([]);
    expect(frame!.headers).toEqual({
      ":message-type": "exception",
      ":exception-type": "modelStreamErrorException",
      ":content-type": "application/json",
    });
    expect(JSON.parse(new TextDecoder().decode(frame!.payload))).toEqual({
      message: "Model Stream Error",
      originalStatusCode: 500,
      originalMessage: "The model stream failed.",
    });
    const again = encodeEventStreamMessage(frame!.headers as Record<string, string>, frame!.payload);
    expect(Buffer.from(again).equals(Buffer.from(bytes))).toBe(true);
  });
});

describe("Bedrock recorded streams under every chunking", () => {
  for (const name of STREAMS) {
    it(`${name}: standard chunkings and cuts inside every frame read like the whole body`, async () => {
      const response = recorded(name);
      const reference = await expectStandardCutsReadWhole(response, outcome);
      expect(await outcome(response, (b) => splitAt(b, insideFrames(b))), "inside frames").toEqual(reference);
    });
  }

  it("property: any cut of any recorded stream reads like the whole body", async () => {
    await expectAnyCutReadsWhole(
      STREAMS.map((name) => recorded(name)),
      outcome,
    );
  });

  it("the references are the answers and errors we expect", async () => {
    const whole = (b: Uint8Array) => [b];
    expect(await outcome(recorded("model-stream-error"), whole)).toMatchObject({
      error: {
        name: "ProviderError",
        status: 424,
        code: "modelStreamErrorException",
        retryable: false,
        message: "Model Stream Error",
      },
    });
    expect(await outcome(recorded("throttled"), whole)).toMatchObject({
      error: { status: 429, code: "throttlingException", retryable: true },
    });
    const tool = (await outcome(recorded("redacted-tool-call"), whole)) as { events: Array<{ type: string }> };
    expect(tool.events.map((e) => e.type)).toEqual(["tool_use", "model_response_complete"]);
  });
});
