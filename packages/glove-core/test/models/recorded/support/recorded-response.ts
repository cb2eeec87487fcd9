/** A provider response as recorded: status, headers and the exact body bytes. */
export interface RecordedResponse {
  status: number;
  headers: Record<string, string>;
  body: Uint8Array;
}

/** A `fetch` Response that delivers `pieces` as separate stream chunks, exactly as cut. */
export function responseFromPieces(recorded: RecordedResponse, pieces: Uint8Array[]): Response {
  let next = 0;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      const piece = pieces[next++];
      if (piece === undefined) controller.close();
      // Copy: a reader may keep or transfer the chunk.
      else controller.enqueue(piece.slice());
    },
  });
  return new Response(stream, { status: recorded.status, headers: recorded.headers });
}

/** The body as UTF-8 text. */
export function bodyText(recorded: RecordedResponse): string {
  return new TextDecoder().decode(recorded.body);
}
