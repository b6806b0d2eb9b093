import { ErrorBody, ErrorCode } from '@tiendita/contracts';
import { signInternalHeaders } from '@tiendita/service-kit';
import type { Readable } from 'node:stream';
import { Pool, type Dispatcher } from 'undici';
import { ServiceUnavailableError, UpstreamError } from '../http/errors';
import type { ServiceName } from '../routes';

/** The caller as the session knows it; nulls for an anonymous (public) call. */
export interface Caller {
  userId: string | null;
  storeId: string | null;
}

export interface ServiceRequest {
  method: string;
  /** Path with query string, as the service receives it. */
  path: string;
  headers?: Record<string, string>;
  body?: Buffer | string | Readable | null;
  caller: Caller;
}

/**
 * Keep-alive undici pools to every service, and the signing of each call: userId and storeId
 * from the session go in headers HMAC-signed with INTERNAL_SECRET (service-kit verifies them).
 */
export class ServiceClient {
  private readonly pools = new Map<ServiceName, Pool>();

  constructor(
    urls: Record<ServiceName, string>,
    private readonly secret: string,
  ) {
    for (const [name, url] of Object.entries(urls) as [ServiceName, string][]) {
      this.pools.set(name, new Pool(url, { connections: 128, keepAliveTimeout: 10_000, headersTimeout: 30_000, bodyTimeout: 60_000 }));
    }
  }

  /** Sends a call; the response streams back. A service that cannot be reached → 503. */
  async request(service: ServiceName, req: ServiceRequest): Promise<Dispatcher.ResponseData> {
    const pool = this.pools.get(service);
    if (!pool) throw new ServiceUnavailableError();
    const signed = signInternalHeaders(this.secret, { method: req.method, path: req.path, userId: req.caller.userId, storeId: req.caller.storeId });
    try {
      return await pool.request({
        method: req.method as Dispatcher.HttpMethod,
        path: req.path,
        headers: { ...req.headers, ...signed },
        body: req.body ?? null,
      });
    } catch (error) {
      const code = (error as { code?: string }).code ?? '';
      if (/^(ECONNREFUSED|ECONNRESET|ENOTFOUND|EHOSTUNREACH|UND_ERR_)/.test(code)) throw new ServiceUnavailableError();
      throw error;
    }
  }

  /**
   * A JSON call the gateway makes for itself (login, register, reset...). A 4xx/5xx answer
   * with the shared error body is thrown as that error, so it reaches the browser unchanged.
   */
  async json<T>(service: ServiceName, method: string, path: string, body: unknown, caller: Caller, requestId?: string): Promise<T> {
    const res = await this.request(service, {
      method,
      path,
      caller,
      headers: { 'content-type': 'application/json', accept: 'application/json', ...(requestId ? { 'x-request-id': requestId } : {}) },
      body: body === undefined ? null : JSON.stringify(body),
    });
    const text = await res.body.text();
    let parsed: unknown;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      parsed = null;
    }
    if (res.statusCode >= 400) {
      const error = ErrorBody.safeParse(parsed);
      if (error.success) throw new UpstreamError(res.statusCode, error.data);
      throw new UpstreamError(res.statusCode >= 500 ? 502 : res.statusCode, { message: 'Respuesta inválida del servicio', code: ErrorCode.internal });
    }
    return parsed as T;
  }

  /** Lets calls in flight finish, but no longer than `graceMs`: a stuck upstream never holds up a shutdown. */
  async close(graceMs = 2000): Promise<void> {
    await Promise.all(
      [...this.pools.values()].map(async (p) => {
        const timer = setTimeout(() => void p.destroy().catch(() => undefined), graceMs);
        await p.close().catch(() => undefined);
        clearTimeout(timer);
      }),
    );
  }
}
