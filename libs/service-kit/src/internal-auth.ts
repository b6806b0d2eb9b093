import { type CanActivate, type ExecutionContext, SetMetadata, createParamDecorator } from '@nestjs/common';
import type { Reflector } from '@nestjs/core';
import { UnauthorizedError } from '@tiendita/eventsourcing';
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';

/** Header names of a signed internal call (gateway → service). */
export const InternalHeader = {
  userId: 'x-tiendita-user-id',
  storeId: 'x-tiendita-store-id',
  timestamp: 'x-tiendita-timestamp',
  signature: 'x-tiendita-signature',
} as const;

/** How old (or how far in the future) a signed call may be. */
export const INTERNAL_SIGNATURE_MAX_AGE_MS = 5 * 60 * 1000;

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
  /** The request path; a query string, if any, is dropped before signing. */
  path: string;
  userId?: string | null;
  storeId?: string | null;
  /** Milliseconds since the epoch; now by default. */
  timestamp?: number;
}

function pathOnly(path: string): string {
  const q = path.indexOf('?');
  return q === -1 ? path : path.slice(0, q);
}

function signature(secret: string, timestamp: string, method: string, path: string, userId: string, storeId: string): string {
  return createHmac('sha256', secret).update(`${timestamp}\n${method.toUpperCase()}\n${pathOnly(path)}\n${userId}\n${storeId}`).digest('hex');
}

/**
 * The headers the gateway adds to every call to a service: HMAC-SHA256 with INTERNAL_SECRET over
 * `${timestamp}\n${METHOD}\n${pathWithoutQuery}\n${userId}\n${storeId}` (empty ids for anonymous calls).
 */
export function signInternalHeaders(secret: string, input: SignInput): Record<string, string> {
  const timestamp = String(input.timestamp ?? Date.now());
  const userId = input.userId ?? '';
  const storeId = input.storeId ?? '';
  return {
    [InternalHeader.userId]: userId,
    [InternalHeader.storeId]: storeId,
    [InternalHeader.timestamp]: timestamp,
    [InternalHeader.signature]: signature(secret, timestamp, input.method, input.path, userId, storeId),
  };
}

function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/**
 * Checks the signed headers of a request. Returns the caller, or null when the call is
 * unsigned, badly signed or stale.
 */
export function verifyInternalHeaders(secret: string, request: Pick<FastifyRequest, 'headers' | 'method' | 'url'>, now = Date.now()): CallerIdentity | null {
  const req = request as FastifyRequest;
  const timestamp = header(req, InternalHeader.timestamp);
  const given = header(req, InternalHeader.signature);
  if (!timestamp || !given || !/^\d{1,16}$/.test(timestamp) || !/^[0-9a-f]{64}$/i.test(given)) return null;
  if (Math.abs(now - Number(timestamp)) > INTERNAL_SIGNATURE_MAX_AGE_MS) return null;
  const userId = header(req, InternalHeader.userId) ?? '';
  const storeId = header(req, InternalHeader.storeId) ?? '';
  const expected = Buffer.from(signature(secret, timestamp, request.method, request.url, userId, storeId), 'hex');
  const actual = Buffer.from(given, 'hex');
  if (actual.length !== expected.length || !timingSafeEqual(actual, expected)) return null;
  return { userId: userId || null, storeId: storeId || null };
}

const PUBLIC_ENDPOINT = 'tiendita:public-endpoint';

/**
 * Lets a route be called without the gateway's signature. Only for /health and the like:
 * every other route, public shop calls included, comes signed through the gateway.
 */
export const PublicEndpoint = () => SetMetadata(PUBLIC_ENDPOINT, true);

type RequestWithCaller = FastifyRequest & { tienditaCaller?: CallerIdentity };

/** Global guard: refuses unsigned, badly signed or stale calls with 401. */
export class InternalCallerGuard implements CanActivate {
  constructor(
    private readonly secret: string,
    private readonly reflector: Reflector,
  ) {}

  canActivate(context: ExecutionContext): boolean {
    if (this.reflector.getAllAndOverride<boolean>(PUBLIC_ENDPOINT, [context.getHandler(), context.getClass()])) return true;
    const request = context.switchToHttp().getRequest<RequestWithCaller>();
    const caller = verifyInternalHeaders(this.secret, request);
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
