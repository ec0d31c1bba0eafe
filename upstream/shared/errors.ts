/** A business error: answered as `{code, msg}` with the message of its code, never as an HTTP error. */
import { ErrorCode, type ErrorName } from '../../contract/errors';

export class BusinessError extends Error {
  readonly code: number;
  constructor(
    readonly errorName: ErrorName,
    /** Extra words for the log and for InvalidRequest (which field). */
    readonly detail?: string,
  ) {
    super(detail ? `${errorName}: ${detail}` : errorName);
    this.code = ErrorCode[errorName];
  }
}

export function fail(name: ErrorName, detail?: string): never {
  throw new BusinessError(name, detail);
}
