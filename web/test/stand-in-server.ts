/**
 * A local stand-in for the API on 127.0.0.1 (tests mock nothing of the project): each test registers the
 * answers it needs, and `installFetch` points the page's fetch at it, resolving relative URLs such as
 * `/api/pos/sales` against the server. The requests it received are kept for assertions.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  method: string;
  path: string;
  body: unknown;
  headers: IncomingMessage['headers'];
}

export interface Answer {
  status: number;
  body?: unknown;
}

type Route = (req: Received) => Answer;

export interface StandIn {
  readonly url: string;
  readonly received: Received[];
  on(method: string, path: string, route: Route | Answer): void;
  close(): Promise<void>;
}

export async function startStandIn(): Promise<StandIn> {
  const routes = new Map<string, Route>();
  const received: Received[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      let body: unknown = text;
      try {
        body = text ? JSON.parse(text) : undefined;
      } catch {
        // a non-JSON body is kept as text
      }
      const path = req.url ?? '/';
      const entry: Received = { method: req.method ?? 'GET', path, body, headers: req.headers };
      received.push(entry);
      const route = routes.get(`${entry.method} ${path.split('?')[0]}`);
      const answer = route ? route(entry) : { status: 404, body: { message: 'No encontrado', code: 'NOT_FOUND' } };
      res.statusCode = answer.status;
      if (answer.body === undefined) return res.end();
      if (typeof answer.body === 'string') return res.end(answer.body);
      res.setHeader('Content-Type', 'application/json');
      res.end(JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    on(method, path, route) {
      routes.set(`${method} ${path}`, typeof route === 'function' ? route : () => route);
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Node's own fetch, as seen from a jsdom test (jest's jsdom environment does not expose it). */
function nodeFetch(): typeof fetch {
  // The jsdom environment hides Node's globals; the stand-in's own process still has them.
  return (require('node:vm') as typeof import('node:vm')).runInThisContext('fetch') as typeof fetch;
}

/**
 * Makes `fetch` (window's and the global one) go to the stand-in. Relative URLs resolve against it; the
 * request's AbortSignal is dropped (jsdom's signal is not the kind Node's fetch accepts). Returns the undo.
 */
export function installFetch(standIn: StandIn): () => void {
  const real = nodeFetch();
  const previous = globalThis.fetch;
  const routed = ((input: RequestInfo | URL, init?: RequestInit) => {
    const url = typeof input === 'string' || input instanceof URL ? String(input) : input.url;
    const { signal: _signal, ...rest } = init ?? {};
    return real(new URL(url, standIn.url), rest);
  }) as typeof fetch;
  globalThis.fetch = routed;
  return () => {
    globalThis.fetch = previous;
  };
}

/**
 * For a test file: starts the stand-in before its tests, points fetch at it, and undoes both after
 * them. The returned object is the stand-in (its methods are ready from the first test on).
 */
export function useStandIn(): StandIn {
  let standIn: StandIn | null = null;
  let undo: (() => void) | null = null;
  beforeAll(async () => {
    standIn = await startStandIn();
    undo = installFetch(standIn);
  });
  afterAll(async () => {
    undo?.();
    await standIn?.close();
  });
  const current = () => {
    if (!standIn) throw new Error('the stand-in starts in beforeAll');
    return standIn;
  };
  return {
    get url() {
      return current().url;
    },
    get received() {
      return current().received;
    },
    on: (method, path, route) => current().on(method, path, route),
    close: () => current().close(),
  };
}
