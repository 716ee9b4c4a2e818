/** The API's error body (RFC 9457 Problem Details, `application/problem+json`), as the spec gives it. */

/** One per-field problem inside a Problem Details body. */
export interface ProblemError {
  code: string;
  field: string | null;
  message: string;
}

/** The API's error body (`application/problem+json`). */
export interface ProblemDetails {
  type: string;
  title: string;
  status: number;
  detail: string;
  code: string;
  field?: string | null;
  errors?: ProblemError[] | null;
}
