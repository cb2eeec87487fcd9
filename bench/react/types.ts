/** What the benchmark page reports for one stream (shared by the page and the Node side). */
export type ChatKind = "glove" | "plain";

export interface PageResult {
  kind: ChatKind;
  tokens: number;
  entries: number;
  /** React commits from the start of the stream to the last one (<Profiler onRender> calls). */
  commits: number;
  /** performance.now() from the start of the stream to the commit of the whole answer. */
  wallMs: number;
  /** Sum of the commits' actualDuration (time React spent rendering them). */
  renderMs: number;
  longTasks: number;
  longTaskMs: number;
  /** When each long task started, in ms from the start of the stream, and how long it took. */
  longTaskSpans: Array<[start: number, duration: number]>;
  /** Characters of the answer found in the DOM after the stream (-1: not found whole). */
  answerChars: number;
  /** Children of the transcript after the stream (history + question + answer). */
  elements: number;
}
