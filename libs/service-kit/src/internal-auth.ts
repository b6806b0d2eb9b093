import { type CanActivate, type ExecutionContext, SetMetadata, createParamDecorator } from '@nestjs/common';
import type { Reflector } from '@nestjs/core';
import { UnauthorizedError } from './http-errors';
import { deriveKey, KeyPurpose } from '@tiendita/eventsourcing';
import { createHash, createHmac, type KeyObject, randomFillSync, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';

/** Header names of a signed internal call (gateway → service, service → service). */
export const InternalHeader = {
  userId: 'x-tiendita-user-id',
  storeId: 'x-tiendita-store-id',
  timestamp: 'x-tiendita-timestamp',
  nonce: 'x-tiendita-nonce',
  contentSha256: 'x-tiendita-content-sha256',
  signature: 'x-tiendita-signature',
} as const;

/** How old (or how far in the future) a signed call may be: a short window, and each nonce once within it. */
export const INTERNAL_SIGNATURE_MAX_AGE_MS = 30 * 1000;

/**
 * The body hash of a streamed body (an image upload piped through the gateway), which cannot be
 * hashed before it is sent. Accepted only for bodies that are not JSON; the nonce still makes the
 * call impossible to replay.
 */
export const UNSIGNED_PAYLOAD = 'UNSIGNED-PAYLOAD';

const EMPTY_SHA256 = createHash('sha256').update('').digest('hex');

/** Who is calling: the user and store of the session, or nulls for an anonymous public call. */
export interface CallerIdentity {
  userId: string | null;
  storeId: string | null;
}

/** A signed-in owner: both ids present. */
export interface OwnerIdentity {
  userId: string;
  storeId: string;
}

export interface SignInput {
  method: string;
  /** The request path with its query string, exactly as the service receives it. */
  path: string;
  userId?: string | null;
  storeId?: string | null;
  /** The body bytes (hashed into the signature); UNSIGNED_PAYLOAD for a streamed body; none for no body. */
  body?: Buffer | string | typeof UNSIGNED_PAYLOAD | null;
  /** Milliseconds since the epoch; now by default. */
  timestamp?: number;
  /** A random value used once; a new one by default. */
  nonce?: string;
}

/** SHA-256 (hex) of a body as signed: bytes hashed, nothing → the hash of the empty string. */
export function bodySha256(body: Buffer | string | null | undefined): string {
  if (body === null || body === undefined || body.length === 0) return EMPTY_SHA256;
  return createHash('sha256').update(body).digest('hex');
}

/** The key internal calls are signed with: derived from INTERNAL_SECRET for this use alone (HKDF, imported once per secret). */
function hmacKey(secret: string): KeyObject {
  return deriveKey(secret, KeyPurpose.internalCall);
}

function signature(secret: string, fields: { timestamp: string; nonce: string; method: string; path: string; userId: string; storeId: string; contentSha256: string }): Buffer {
  return createHmac('sha256', hmacKey(secret))
    .update(`v2\n${fields.timestamp}\n${fields.nonce}\n${fields.method.toUpperCase()}\n${fields.path}\n${fields.userId}\n${fields.storeId}\n${fields.contentSha256}`)
    .digest();
}

// Nonces are 128 random bits, cut from a block of random bytes filled 256 nonces at a time (one
// call into the CSPRNG per 256 signed calls instead of one each). Each block is used once.
const NONCE_BYTES = 16;
const nonceBlock = Buffer.alloc(NONCE_BYTES * 256);
let nonceOffset = nonceBlock.length;

/** A fresh random nonce (32 hex characters). */
export function newNonce(): string {
  if (nonceOffset >= nonceBlock.length) {
    randomFillSync(nonceBlock);
    nonceOffset = 0;
  }
  const nonce = nonceBlock.toString('hex', nonceOffset, nonceOffset + NONCE_BYTES);
  nonceOffset += NONCE_BYTES;
  return nonce;
}

/**
 * The headers of a signed internal call: HMAC-SHA256 with the internal-call key derived from INTERNAL_SECRET over the time, a nonce,
 * the method, the path with its query, the caller's user and store (empty for anonymous calls) and
 * the SHA-256 of the body. Sign each attempt anew: a service accepts each nonce once.
 */
export function signInternalHeaders(secret: string, input: SignInput): Record<string, string> {
  const timestamp = String(input.timestamp ?? Date.now());
  const nonce = input.nonce ?? newNonce();
  const userId = input.userId ?? '';
  const storeId = input.storeId ?? '';
  const contentSha256 = input.body === UNSIGNED_PAYLOAD ? UNSIGNED_PAYLOAD : bodySha256(input.body as Buffer | string | null | undefined);
  return {
    [InternalHeader.userId]: userId,
    [InternalHeader.storeId]: storeId,
    [InternalHeader.timestamp]: timestamp,
    [InternalHeader.nonce]: nonce,
    [InternalHeader.contentSha256]: contentSha256,
    [InternalHeader.signature]: signature(secret, { timestamp, nonce, method: input.method, path: input.path, userId, storeId, contentSha256 }).toString('hex'),
  };
}

function header(request: { headers: FastifyRequest['headers'] }, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** Nonces seen within the signature window: a captured call cannot be sent again. */
export class NonceCache {
  private readonly seen = new Map<string, number>();

  /** Records a nonce; false when it was already used within the window. */
  use(nonce: string, now: number): boolean {
    this.sweep(now);
    if (this.seen.has(nonce)) return false;
    this.seen.set(nonce, Math.max(now, this.latest) + 2 * INTERNAL_SIGNATURE_MAX_AGE_MS);
    this.latest = Math.max(now, this.latest);
    return true;
  }

  private latest = 0;

  /** Nonces remembered now. */
  get size(): number {
    return this.seen.size;
  }

  /**
   * Drops the expired nonces from the oldest on. A Map iterates in insertion order and each entry
   * expires a fixed time after the latest clock seen when it was added, so expiries never decrease
   * along the map: the sweep stops at the first live one and costs only what it removes. (Scanning
   * the whole map every few hundred calls made ~60,000 entries at 500 calls/s walk twice a second.)
   */
  private sweep(now: number): void {
    for (const [nonce, expires] of this.seen) {
      if (expires >= now) return;
      this.seen.delete(nonce);
    }
  }
}

const defaultNonces = new NonceCache();

/** What the service received: the headers, method, URL (with query), and the SHA-256 of the body it read. */
export interface ReceivedCall {
  headers: FastifyRequest['headers'];
  method: string;
  url: string;
  /** SHA-256 of the raw body as received (service-kit's preParsing hook); undefined when the body was not read (none, or streamed). */
  bodySha256?: string;
}

/**
 * Checks the signed headers of a request. Returns the caller, or null when the call is unsigned,
 * badly signed, stale, replayed, or its body is not the one signed.
 */
export function verifyInternalHeaders(secret: string, call: ReceivedCall, now = Date.now(), nonces: NonceCache = defaultNonces): CallerIdentity | null {
  const timestamp = header(call, InternalHeader.timestamp);
  const nonce = header(call, InternalHeader.nonce);
  const given = header(call, InternalHeader.signature);
  const contentSha256 = header(call, InternalHeader.contentSha256);
  if (!timestamp || !given || !nonce || !contentSha256) return null;
  if (!/^\d{1,16}$/.test(timestamp) || !/^[0-9a-f]{64}$/i.test(given) || !/^[0-9a-f]{16,64}$/i.test(nonce)) return null;
  if (Math.abs(now - Number(timestamp)) > INTERNAL_SIGNATURE_MAX_AGE_MS) return null;
  const userId = header(call, InternalHeader.userId) ?? '';
  const storeId = header(call, InternalHeader.storeId) ?? '';
  const expected = signature(secret, { timestamp, nonce, method: call.method, path: call.url, userId, storeId, contentSha256 });
  const actual = Buffer.from(given, 'hex');
  if (actual.length !== expected.length || !timingSafeEqual(actual, expected)) return null;
  if (contentSha256 === UNSIGNED_PAYLOAD) {
    // Only a streamed, non-JSON body may go unhashed.
    if (/json/i.test(header(call, 'content-type') ?? '')) return null;
  } else if ((call.bodySha256 ?? EMPTY_SHA256) !== contentSha256) {
    return null;
  }
  if (!nonces.use(nonce, now)) return null;
  return { userId: userId || null, storeId: storeId || null };
}

const PUBLIC_ENDPOINT = 'tiendita:public-endpoint';

/**
 * Lets a route be called without the gateway's signature. Only for /health and the like:
 * every other route, public shop calls included, comes signed through the gateway.
 */
export const PublicEndpoint = () => SetMetadata(PUBLIC_ENDPOINT, true);

/** Where service-kit's preParsing hook leaves the SHA-256 of the body it read. */
export const RECEIVED_BODY_SHA256 = Symbol('tiendita.bodySha256');

type RequestWithCaller = FastifyRequest & { tienditaCaller?: CallerIdentity; [RECEIVED_BODY_SHA256]?: string };

/** Global guard: refuses unsigned, badly signed or stale calls with 401. */
export class InternalCallerGuard implements CanActivate {
  constructor(
    private readonly secret: string,
    private readonly reflector: Reflector,
  ) {}

  /** Whether each controller's handler is a @PublicEndpoint(), looked up once (metadata does not change after start). */
  private readonly publicHandlers = new WeakMap<object, WeakMap<object, boolean>>();

  canActivate(context: ExecutionContext): boolean {
    const handler = context.getHandler();
    const controller = context.getClass();
    let handlers = this.publicHandlers.get(controller);
    if (!handlers) {
      handlers = new WeakMap();
      this.publicHandlers.set(controller, handlers);
    }
    let isPublic = handlers.get(handler);
    if (isPublic === undefined) {
      isPublic = this.reflector.getAllAndOverride<boolean>(PUBLIC_ENDPOINT, [handler, controller]) === true;
      handlers.set(handler, isPublic);
    }
    if (isPublic) return true;
    const request = context.switchToHttp().getRequest<RequestWithCaller>();
    const caller = verifyInternalHeaders(this.secret, { headers: request.headers, method: request.method, url: request.url, bodySha256: request[RECEIVED_BODY_SHA256] });
    if (!caller) throw new UnauthorizedError('Llamada interna no autorizada');
    request.tienditaCaller = caller;
    return true;
  }
}

/** The verified caller of the request (nulls for an anonymous public call). */
export const Caller = createParamDecorator((_data: unknown, context: ExecutionContext): CallerIdentity => {
  const request = context.switchToHttp().getRequest<RequestWithCaller>();
  return request.tienditaCaller ?? { userId: null, storeId: null };
});

/** The signed-in owner of the request; 401 'No autenticado' when the call has no user or store. */
export const Owner = createParamDecorator((_data: unknown, context: ExecutionContext): OwnerIdentity => {
  const caller = context.switchToHttp().getRequest<RequestWithCaller>().tienditaCaller;
  if (!caller?.userId || !caller.storeId) throw new UnauthorizedError('No autenticado');
  return { userId: caller.userId, storeId: caller.storeId };
});
