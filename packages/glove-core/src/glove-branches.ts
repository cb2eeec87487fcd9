import type { BranchInfo, ModelAnswer, ModelPromptResult, PlainRequestResult } from "./types/index.js";
import { BranchError } from "./branches/branch-error.js";
import {
  branchInfo,
  forkForEdit,
  forkForRegenerate,
  switchTo,
  type BranchScope,
} from "./branches/branch-operations.js";
import type { GloveParts } from "./glove-parts.js";
import { storeKeepsWaits } from "./runtime/call-waits.js";
import { resumeTurn } from "./runtime/resume-turn.js";
import { pendingQuestions } from "./runtime/stored-questions.js";

/** What the branch operations use of their Glove: its parts and its one-at-a-time queue. */
export interface BranchHost {
  parts(name: string): GloveParts;
  busy(): boolean;
  enqueue<T>(work: () => Promise<T>): Promise<T>;
  enqueueTurn(name: string, work: (parts: GloveParts) => Promise<ModelPromptResult>): Promise<ModelAnswer>;
  /** Runs a user request as `processRequest` does, inside the queue slot already held. */
  request(text: string, signal: AbortSignal | undefined): Promise<PlainRequestResult>;
}

/** `Glove.regenerate`, `editMessage`, `branches` and `switchBranch` (decision 0025), bound so Glove exposes them as they are. */
export class GloveBranches {
  constructor(private readonly host: BranchHost) {}

  readonly regenerate = (signal?: AbortSignal): Promise<ModelAnswer> =>
    this.exclusive("regenerate", () =>
      this.host.enqueueTurn("regenerate", async (parts) => {
        await forkForRegenerate(scopeOf(parts));
        return resumeTurn(parts.agent, signal);
      }),
    );

  readonly editMessage = (messageId: string, text: string, signal?: AbortSignal): Promise<PlainRequestResult> =>
    this.exclusive("editMessage", () =>
      this.host.enqueue(async () => {
        await forkForEdit(scopeOf(this.host.parts("editMessage")), messageId);
        return this.host.request(text, signal);
      }),
    );

  readonly branches = async (): Promise<BranchInfo> => branchInfo(this.host.parts("branches").store);

  readonly switchBranch = (messageId: string): Promise<BranchInfo> =>
    this.exclusive("switchBranch", () =>
      this.host.enqueue(() => switchTo(scopeOf(this.host.parts("switchBranch")), messageId)),
    );

  /** Refused while a request runs: an edit queued behind a running turn would race what it writes. */
  private exclusive<T>(name: string, work: () => Promise<T>): Promise<T> {
    try {
      this.host.parts(name);
      if (this.host.busy())
        throw new BranchError(
          "busy",
          `Glove.${name}() cannot run while a request is running; wait for it or abort it.`,
        );
      return work();
    } catch (error) {
      return Promise.reject(error);
    }
  }
}

function scopeOf(parts: GloveParts): BranchScope {
  const waiting = async () =>
    storeKeepsWaits(parts.store) && (await pendingQuestions(parts.store, await parts.context.modelView())).length > 0;
  return { store: parts.store, context: parts.context, waiting };
}
