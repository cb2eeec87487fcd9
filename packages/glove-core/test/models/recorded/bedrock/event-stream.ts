/**
 * Bedrock recordings stored as one decoded event per line (`{"<eventType>": payload}`), turned
 * back into the binary `application/vnd.amazon.eventstream` frames ConverseStream sends: prelude,
 * string headers, JSON payload and both CRC32s. A `…Exception` line becomes an exception frame.
 */
import { fileURLToPath } from "node:url";
import { BedrockAdapter, type BedrockAdapterOptions } from "glove-core/models/bedrock";
import { encodeEventStreamMessage } from "../../../../src/models/shared/aws.js";
import { loadFixture, type RecordedResponse } from "../support/index.js";

export const DIR = fileURLToPath(new URL(".", import.meta.url));

/** The frames of one decoded event. */
export function frameOf(line: string): Uint8Array {
  const event = JSON.parse(line) as Record<string, unknown>;
  const [type, payload] = Object.entries(event)[0]!;
  const headers: Record<string, string> = type.endsWith("Exception")
    ? { ":message-type": "exception", ":exception-type": type, ":content-type": "application/json" }
    : { ":message-type": "event", ":event-type": type, ":content-type": "application/json" };
  return encodeEventStreamMessage(headers, JSON.stringify(payload));
}

/** A stream response whose body is the frames of `lines`, concatenated. */
export function eventStream(lines: string[]): RecordedResponse {
  const body = Buffer.concat(lines.map((l) => frameOf(l)));
  return { status: 200, headers: { "content-type": "application/vnd.amazon.eventstream" }, body: new Uint8Array(body) };
}

/** Fixture `name`: decoded-event `.txt` fixtures become binary event streams; others as stored. */
export function recorded(name: string): RecordedResponse {
  const fixture = loadFixture(DIR, name);
  const type = fixture.response.headers["content-type"];
  if (type === "text/plain")
    return eventStream(
      new TextDecoder()
        .decode(fixture.response.body)
        .split("\n")
        .filter((l) => l.trim()),
    );
  if (type === "application/octet-stream")
    return { ...fixture.response, headers: { "content-type": "application/vnd.amazon.eventstream" } };
  return fixture.response;
}

/** A Bedrock adapter for a replay (static test credentials: requests are signed, never sent to AWS). */
export function adapter(
  options: Partial<BedrockAdapterOptions> & { baseURL?: string; fetch?: typeof fetch },
): BedrockAdapter {
  return new BedrockAdapter({
    model: "us.anthropic.claude-sonnet-4-20250514-v1:0",
    region: "us-east-1",
    credentials: { accessKeyId: "AKIDEXAMPLE", secretAccessKey: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY" },
    retryBaseDelayMs: 5,
    ...options,
  });
}
