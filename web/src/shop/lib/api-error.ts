/**
 * The server's message of a failed call (`${status}: ${body}`, spec 000 §7), read without zod: the
 * client's readApiError validates with the contracts' schema, which would add zod to the shop's first page.
 */
export function serverMessage(error: unknown): string | null {
  if (!(error instanceof Error)) return null;
  const match = /^\d{3}: ([\s\S]*)$/.exec(error.message);
  if (!match) return null;
  try {
    const body: unknown = JSON.parse(match[1]);
    const message = body && typeof body === 'object' ? (body as { message?: unknown }).message : undefined;
    return typeof message === 'string' && message.trim() ? message : null;
  } catch {
    return null;
  }
}
