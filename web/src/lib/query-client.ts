import { ApiError, apiFetch, apiJson } from './api';
import { QueryCache, QueryClient, type QueryFunction } from '@tanstack/react-query';

/** Sends a request with credentials; a body goes out as JSON. Throws an ApiError on any non-ok status. */
export function apiRequest(method: string, url: string, body?: unknown): Promise<Response> {
  return apiFetch(method, url, body === undefined ? {} : { json: body });
}

type UnauthorizedBehavior = 'returnNull' | 'throw';

/** The default read: GET the query key joined by '/', parsed as JSON; optionally a 401 gives null. */
export function getQueryFn<T>(options: { on401: UnauthorizedBehavior }): QueryFunction<T> {
  return async ({ queryKey, signal }) => {
    try {
      return await apiJson<T>('GET', queryKey.join('/'), { signal });
    } catch (error) {
      if (options.on401 === 'returnNull' && error instanceof ApiError && error.status === 401) return null as T;
      throw error;
    }
  };
}

/** Whether an error thrown by apiRequest or the default query function is a 401. */
export function isUnauthorizedError(error: unknown): boolean {
  return error instanceof ApiError && error.status === 401;
}

type SessionLostListener = () => void;
const sessionLostListeners = new Set<SessionLostListener>();

/** Called when a read answers 401 while the client believed it was signed in. */
export function onSessionLost(listener: SessionLostListener): () => void {
  sessionLostListeners.add(listener);
  return () => sessionLostListeners.delete(listener);
}

export function createQueryClient(): QueryClient {
  return new QueryClient({
    queryCache: new QueryCache({
      onError: (error) => {
        if (isUnauthorizedError(error)) sessionLostListeners.forEach((listener) => listener());
      },
    }),
    defaultOptions: {
      queries: {
        queryFn: getQueryFn({ on401: 'throw' }),
        refetchInterval: false,
        refetchOnWindowFocus: false,
        staleTime: 300_000,
        retry: false,
      },
      mutations: { retry: false },
    },
  });
}
