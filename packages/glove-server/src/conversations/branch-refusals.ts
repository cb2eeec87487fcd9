import { BranchError, ConfigurationError } from "glove-core";
import { badRequest, conflict, HttpError, notFound } from "../errors.js";

/** A glove-core `BranchError` as the HTTP answer the routes document (decision 0025); anything else as it is. */
export function branchRefusalToHttp(error: unknown): unknown {
  if (ConfigurationError.isInstance(error)) return new HttpError(501, "GLOVE_NOT_SUPPORTED", error.message);
  if (!BranchError.isInstance(error)) return error;
  const refusals: Record<BranchError["reason"], () => HttpError> = {
    not_found: () => notFound(`${error.message} Read the conversation's branches with GET …/branches.`),
    invalid: () => badRequest(error.message, [{ path: "messageId", message: error.reason }]),
    waiting: () => conflict("GLOVE_WAITING_FOR_ANSWER", error.message),
    conflict: () => conflict("GLOVE_BRANCH_CONFLICT", error.message),
    busy: () => conflict("GLOVE_BUSY", error.message),
  };
  return refusals[error.reason]();
}

/** Runs a branch operation, answering its refusals as HttpErrors. */
export async function asHttp<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw branchRefusalToHttp(error);
  }
}
