import { AuthMessages, ErrorBody } from '@tiendita/contracts';
import { type DomainError, errorFromBody, ForbiddenError, HttpError, NotFoundError, PayloadTooLargeError, UnauthorizedError } from '@tiendita/service-kit';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Readable, Transform } from 'node:stream';
import type { Dispatcher } from 'undici';
import { resolveRoute, type Access } from '../routes';
import type { ServiceAdmission } from './admission';
import type { Caller, ServiceClient } from './service-client';

export const TENANT_MISMATCH = 'No tienes acceso a esta tienda';

const SMALL_BODY_BYTES = 64 * 1024;

// Hop-by-hop and edge-only headers: never passed between browser and service.
const DROP_REQUEST = new Set([
  'host', 'connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade', 'te', 'trailer',
  'cookie', 'authorization', 'content-length', 'expect',
  'x-forwarded-for', 'x-forwarded-host', 'x-forwarded-proto', 'x-request-id',
]);
/** Every header of this prefix is the gateway's to write (the signed caller): whatever a browser sent is dropped. */
const INTERNAL_PREFIX = 'x-tiendita-';
const DROP_RESPONSE = new Set(['connection', 'keep-alive', 'transfer-encoding', 'set-cookie', 'trailer', 'upgrade', 'proxy-connection', 'content-security-policy']);

/** JSON bodies are parsed once (for the tenant check) and forwarded as the bytes that came in. */
export const RAW_BODY = Symbol('tiendita.rawBody');
export type RequestWithRaw = FastifyRequest & { [RAW_BODY]?: Buffer };

/** The tenant of a call is the session's: a different storeId in the query or body is refused. */
export function assertSameTenant(request: FastifyRequest, storeId: string): void {
  const query = request.query as Record<string, unknown> | undefined;
  const queryStore = query?.storeId;
  const values = Array.isArray(queryStore) ? queryStore : queryStore === undefined ? [] : [queryStore];
  const body = request.body;
  if (body && typeof body === 'object' && !Buffer.isBuffer(body) && !(body instanceof Readable)) {
    const items = Array.isArray(body) ? body : [body];
    for (const item of items) {
      if (item && typeof item === 'object' && 'storeId' in item) values.push((item as { storeId: unknown }).storeId);
    }
  }
  for (const value of values) {
    if (value !== storeId && value !== null && value !== '') throw new ForbiddenError(TENANT_MISMATCH);
  }
}

function limitStream(source: Readable, limit: number): Readable {
  let seen = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      seen += chunk.length;
      if (seen > limit) done(new PayloadTooLargeError());
      else done(null, chunk);
    },
  });
  source.on('error', (error) => counter.destroy(error));
  return source.pipe(counter);
}

/** The JSON of an error answer of at most SMALL_BODY_BYTES, else undefined (too large, not JSON); the body is consumed either way. */
async function readErrorBody(res: Dispatcher.ResponseData): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of res.body) {
      size += (chunk as Buffer).length;
      if (size > SMALL_BODY_BYTES) {
        await res.body.dump().catch(() => undefined);
        return undefined;
      }
      chunks.push(chunk as Buffer);
    }
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    return undefined;
  }
}

/**
 * A service's 5xx never passes through as it is: its text could be internal (a stack, SQL, a
 * proxy's page). A 503 in the shared error body is one our code chose (its Spanish message and
 * details, e.g. what a product edit saved, go on); everything else becomes errorFromBody's
 * generic answer.
 */
function upstreamError(status: number, parsed: unknown): DomainError {
  const body = ErrorBody.safeParse(parsed);
  if (status === 503 && body.success) return new HttpError(body.data.message, 503, body.data.code, body.data.details);
  return errorFromBody(status, parsed);
}

export interface ForwardOptions {
  services: ServiceClient;
  uploadLimitBytes: number;
  /** Caps the calls waiting on each service (one instance shared by every forwarder); none when absent. */
  admission?: ServiceAdmission;
}

/**
 * Forwards a call by the route table: unknown route → 404; an owner route without a signed-in
 * session → 401 'No autenticado'; then the call goes to its service with the caller signed in the
 * headers, and the answer streams back as it is.
 */
export function createForwarder(options: ForwardOptions, access: Access) {
  return async function forward(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const path = request.url.split('?', 1)[0];
    const rule = resolveRoute(request.method, path);
    if (!rule || (access === 'public' && rule.access !== 'public')) throw new NotFoundError('Ruta no encontrada');

    let caller: Caller = { userId: null, storeId: null };
    if (rule.access === 'owner') {
      const user = (request as FastifyRequest & { user?: Caller | null }).user;
      if (!user?.userId || !user.storeId) throw new UnauthorizedError(AuthMessages.notAuthenticated);
      assertSameTenant(request, user.storeId);
      caller = { userId: user.userId, storeId: user.storeId };
    }

    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(request.headers)) {
      if (value === undefined || DROP_REQUEST.has(name) || name.startsWith(INTERNAL_PREFIX)) continue;
      headers[name] = Array.isArray(value) ? value.join(', ') : value;
    }
    headers['x-request-id'] = String(request.id);
    headers['x-forwarded-for'] = request.ip;
    headers['x-forwarded-proto'] = request.protocol;
    headers['x-forwarded-host'] = request.host;

    let body: Buffer | Readable | null = null;
    const raw = (request as RequestWithRaw)[RAW_BODY];
    if (raw) body = raw;
    else if (request.body instanceof Readable) body = limitStream(request.body, options.uploadLimitBytes);
    else if (Buffer.isBuffer(request.body)) body = request.body;
    if (body === null) delete headers['content-type'];
    if (Buffer.isBuffer(body)) headers['content-length'] = String(body.length);

    const call = async () => {
      const res = await options.services.request(rule.service, { method: request.method, path: request.url, headers, body, caller });
      if (res.statusCode >= 500) throw upstreamError(res.statusCode, await readErrorBody(res));
      return res;
    };
    const res = options.admission ? await options.admission.run(rule.service, call) : await call();
    reply.status(res.statusCode);
    for (const [name, value] of Object.entries(res.headers)) {
      if (value === undefined || DROP_RESPONSE.has(name)) continue;
      reply.header(name, value);
    }
    // Small answers (most JSON) are sent as one buffer, cheaper than piping a stream; large
    // ones (images, exports) stream through.
    const length = Number(res.headers['content-length']);
    if (Number.isFinite(length) && length <= SMALL_BODY_BYTES) return reply.send(Buffer.from(await res.body.arrayBuffer()));
    return reply.send(res.body);
  };
}
