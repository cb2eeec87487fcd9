import { BranchError } from "glove-core/errors";
import { ServerRequestError } from "../errors.js";
import type { BranchActionResult } from "../types/session.js";

/** glove-server's refusal codes for branch operations (409s), as a `BranchActionResult` reason. */
const CONFLICTS: Record<string, "busy" | "waiting" | "conflict"> = {
  GLOVE_BUSY: "busy",
  GLOVE_WAITING_FOR_ANSWER: "waiting",
  GLOVE_BRANCH_CONFLICT: "conflict",
};

/** Why a regenerate, edit or switch was refused (glove-core's BranchError or the server's answer); other errors are rethrown. */
export function branchRefusal(error: unknown): BranchActionResult {
  if (BranchError.isInstance(error)) return { ok: false, reason: error.reason, message: error.message };
  if (!ServerRequestError.isInstance(error)) throw error;
  const { status, message, code } = error;
  if (status === 409) return { ok: false, reason: CONFLICTS[code] ?? "conflict", message };
  if (status === 404) return { ok: false, reason: "not_found", message };
  if (status === 400) return { ok: false, reason: "invalid", message };
  if (status === 0) return { ok: false, reason: "unreachable", message };
  return { ok: false, reason: "refused", message };
}
