/**
 * The web client's one way to call the API: `apiFetch` (and `apiJson` on top of it) sends the
 * request with the session cookie and throws an `ApiError` for any non-ok answer. Every feature's
 * api/ file calls these; nothing else calls fetch for /api.
 *
 * This module is in the entry chunk, so it reads the error body by hand instead of with the
 * contract's zod schema (zod stays out of the landing page's bundle).
 */

/** Per-field messages of a 400, keyed by the form field's name (`price`, `images`, `file`…). */
export type FieldErrors = Record<string, string>;

/**
 * A non-ok answer of the API. `message` keeps the spec's display format (spec 001 §8: the status,
 * a colon, and the body text, e.g. `400: {"message":"…","code":"VALIDATION_ERROR"}`); the parts
 * are on their own fields: `status`, `code`, `serverMessage` (the server's Spanish text, or null
 * when the body was not the error JSON) and `fieldErrors`.
 */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string | null;
  readonly serverMessage: string | null;
  readonly fieldErrors: FieldErrors;
  /** The body as the server sent it (or the status text when it was empty). */
  readonly body: string;

  constructor(status: number, body: string) {
    super(`${status}: ${body}`);
    this.name = 'ApiError';
    this.status = status;
    this.body = body;
    const parsed = parseErrorBody(body);
    this.code = parsed.code;
    this.serverMessage = parsed.message;
    this.fieldErrors = parsed.fields;
  }
}

/** `{ message, code, details: { fields } }` read without zod; anything else gives nulls. */
function parseErrorBody(body: string): { message: string | null; code: string | null; fields: FieldErrors } {
  const empty = { message: null, code: null, fields: {} };
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    return empty;
  }
  if (!json || typeof json !== 'object') return empty;
  const { message, code, details } = json as { message?: unknown; code?: unknown; details?: unknown };
  if (typeof message !== 'string') return empty;
  const fields: FieldErrors = {};
  const rawFields = details && typeof details === 'object' ? (details as { fields?: unknown }).fields : undefined;
  if (rawFields && typeof rawFields === 'object') {
    for (const [name, value] of Object.entries(rawFields as Record<string, unknown>)) {
      if (typeof value === 'string') fields[name] = value;
      else if (Array.isArray(value) && typeof value[0] === 'string') fields[name] = value[0];
    }
  }
  return { message, code: typeof code === 'string' ? code : null, fields };
}

/** A body sent as it is (a File, Blob or bytes). */
type RawBody = NonNullable<RequestInit['body']>;

export interface ApiFetchOptions {
  /** Sent as JSON (with its content type). */
  json?: unknown;
  /** Sent as it is (a File for an upload), with `contentType`. */
  raw?: RawBody;
  contentType?: string;
  /** Extra request headers (the browser adds cookies itself; tests pass theirs here). */
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

/** Throws the ApiError of a non-ok response (its body read as text); does nothing for an ok one. */
export async function throwIfNotOk(res: Response): Promise<void> {
  if (res.ok) return;
  const text = (await res.text().catch(() => '')) || res.statusText;
  throw new ApiError(res.status, text);
}

/** The one fetch wrapper: credentials included, JSON or raw body, ApiError on any non-ok status. */
export async function apiFetch(method: string, url: string, options: ApiFetchOptions = {}): Promise<Response> {
  const headers: Record<string, string> = { ...options.headers };
  let body: RawBody | undefined;
  if (options.json !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(options.json);
  } else if (options.raw !== undefined) {
    if (options.contentType) headers['Content-Type'] = options.contentType;
    body = options.raw;
  }
  const res = await fetch(url, { method, headers, body, credentials: 'include', signal: options.signal });
  await throwIfNotOk(res);
  return res;
}

/** apiFetch, then the answer's JSON. */
export async function apiJson<T>(method: string, url: string, options: ApiFetchOptions = {}): Promise<T> {
  const res = await apiFetch(method, url, options);
  return (await res.json()) as T;
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}

/** The server's Spanish message when the error carries one, else the screen's own fallback text. */
export function serverMessageOr(error: unknown, fallback: string): string {
  return (isApiError(error) && error.serverMessage) || fallback;
}

/** The per-field messages of an error (empty when it has none). */
export function fieldErrorsOf(error: unknown): FieldErrors {
  return isApiError(error) ? error.fieldErrors : {};
}

/** What a failed call said, for screens that read the parts one by one. */
export interface ApiErrorInfo {
  status: number | null;
  code: string | null;
  message: string | null;
  fields: FieldErrors;
}

/** The parts of an ApiError (message = the server's text); any other error gives nulls (a network failure, a bug). */
export function readApiError(error: unknown): ApiErrorInfo {
  if (!isApiError(error)) return { status: null, code: null, message: null, fields: {} };
  return { status: error.status, code: error.code, message: error.serverMessage, fields: { ...error.fieldErrors } };
}
