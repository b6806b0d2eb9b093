import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** How the stand-in answers the next chat completion. */
export type StandInMode = { kind: 'answer'; content: string } | { kind: 'refusal' } | { kind: 'slow'; ms: number; content: string } | { kind: 'error'; status: number };

/**
 * A local OpenAI-compatible server on 127.0.0.1 (POST /v1/chat/completions) for tests: it records
 * each request body and answers as `mode` says.
 */
export class OpenAiStandIn {
  mode: StandInMode = { kind: 'answer', content: '{}' };
  readonly requests: { path: string; authorization?: string; body: Record<string, unknown> }[] = [];
  private server!: Server;
  url = '';

  async start(): Promise<void> {
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/v1`;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async handle(req: IncomingMessage, res: import('node:http').ServerResponse): Promise<void> {
    let raw = '';
    for await (const chunk of req) raw += chunk;
    this.requests.push({ path: req.url ?? '', authorization: req.headers.authorization, body: raw ? JSON.parse(raw) : {} });
    const mode = this.mode;
    const completion = (content: string | null, refusal: string | null = null) =>
      JSON.stringify({
        id: 'chatcmpl-test',
        object: 'chat.completion',
        created: 1,
        model: 'modelo-prueba',
        choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content, refusal } }],
      });
    if (mode.kind === 'error') {
      res.writeHead(mode.status, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: 'falla del servidor de prueba' } }));
      return;
    }
    if (mode.kind === 'slow') {
      const timer = setTimeout(() => {
        if (!res.destroyed) res.writeHead(200, { 'content-type': 'application/json' }).end(completion(mode.content));
      }, mode.ms);
      res.on('close', () => clearTimeout(timer));
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end(mode.kind === 'refusal' ? completion(null, 'No puedo ayudar con eso.') : completion(mode.content));
  }
}
