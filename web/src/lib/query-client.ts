import { QueryCache, QueryClient, type QueryFunction } from '@tanstack/react-query';

/** Turns a non-ok response into an Error reading `${status}: ${body or status text}` (spec 000 §7). */
async function throwIfResNotOk(res: Response): Promise<void> {
  if (!res.ok) {
    const text = (await res.text()) || res.statusText;
    throw new Error(`${res.status}: ${text}`);
  }
}

/** Sends a request with credentials; a body goes out as JSON. Throws on any non-ok status. */
export async function apiRequest(method: string, url: string, body?: unknown): Promise<Response> {
  const res = await fetch(url, {
    method,
    headers: body !== undefined ? { 'Content-Type': 'application/json' } : {},
    body: body !== undefined ? JSON.stringify(body) : undefined,
    credentials: 'include',
  });
  await throwIfResNotOk(res);
  return res;
}

type UnauthorizedBehavior = 'returnNull' | 'throw';

/** The default read: GET the query key joined by '/', parsed as JSON; optionally a 401 gives null. */
export function getQueryFn<T>(options: { on401: UnauthorizedBehavior }): QueryFunction<T> {
  return async ({ queryKey, signal }) => {
    const res = await fetch(queryKey.join('/'), { credentials: 'include', signal });
    if (options.on401 === 'returnNull' && res.status === 401) return null as T;
    await throwIfResNotOk(res);
    return (await res.json()) as T;
  };
}

/** Whether an error thrown by apiRequest or the default query function is a 401. */
export function isUnauthorizedError(error: unknown): boolean {
  return error instanceof Error && /^401: /.test(error.message);
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
