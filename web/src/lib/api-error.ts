import { ErrorBody } from '@tiendita/contracts';

/** What a failed call said: its status, the server's message and per-field messages when present. */
export interface ApiErrorInfo {
  status: number | null;
  code: string | null;
  message: string | null;
  fields: Record<string, string>;
}

/** Reads an Error of the form `${status}: ${body}` (spec 000 §7) back into its parts. */
export function readApiError(error: unknown): ApiErrorInfo {
  const info: ApiErrorInfo = { status: null, code: null, message: null, fields: {} };
  if (!(error instanceof Error)) return info;
  const match = /^(\d{3}): ([\s\S]*)$/.exec(error.message);
  if (!match) return info;
  info.status = Number(match[1]);
  let json: unknown;
  try {
    json = JSON.parse(match[2]);
  } catch {
    return info;
  }
  const body = ErrorBody.safeParse(json);
  if (!body.success) return info;
  info.code = body.data.code;
  info.message = body.data.message;
  const fields = body.data.details?.fields;
  if (fields && typeof fields === 'object') {
    for (const [name, value] of Object.entries(fields as Record<string, unknown>)) {
      if (typeof value === 'string') info.fields[name] = value;
      else if (Array.isArray(value) && typeof value[0] === 'string') info.fields[name] = value[0];
    }
  }
  return info;
}

/** The server's message when it sent one, else the screen's own fallback text. */
export function serverMessageOr(error: unknown, fallback: string): string {
  return readApiError(error).message ?? fallback;
}
