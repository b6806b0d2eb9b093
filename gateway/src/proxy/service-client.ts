import { type CallerIdentity, InternalClient, type JsonCallOptions } from '@tiendita/service-kit';
import type { ServiceName } from '../routes';

/** The caller as the session knows it; nulls for an anonymous (public) call. */
export type Caller = CallerIdentity;

/**
 * service-kit's signed internal client over the gateway's services. The gateway streams answers
 * through with request(); its own JSON calls (login, register, reset...) may pass the request id.
 */
export class ServiceClient extends InternalClient<ServiceName> {
  override json<T>(service: ServiceName, method: string, path: string, body: unknown, caller: Caller, options?: string | JsonCallOptions<T>): Promise<T> {
    return super.json<T>(service, method, path, body, caller, typeof options === 'string' ? { requestId: options } : options);
  }
}
