import { Agent as HttpAgent, request as httpRequest } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { CertifierAnswer } from '../sandbox/sandbox-certifier';
import { UNIFIED_PATH } from '../sandbox/sandbox-certifier';

/** The certifier's credentials as INFILE names them in its headers. */
export interface CertifierCredentials {
  apiUser?: string | null;
  apiKey?: string | null;
  signUser?: string | null;
  signKey?: string | null;
}

/** What one call to the certifier came to. */
export type CertifyOutcome =
  | { kind: 'certified'; xml: string; uuid: string | null; series: string | null; number: string | null; alreadyCertified: boolean }
  /** The certifier answered and refused the document: the owner must act (e.g. correct the NIT). */
  | { kind: 'refused'; message: string }
  /** No usable answer (down, slow, a 5xx): try again later. */
  | { kind: 'unavailable'; message: string };

const ALREADY_CERTIFIED = /ya (fue |ha sido )?certificad|identificador.*(ya|duplicad|utilizad)/i;

/**
 * INFILE's unified process (sign and certify, or annul, in one call): POST of the XML with the
 * issuer's API user and key and signature user and key in headers, and the Identificador that
 * makes the call idempotent (the order's id). The same code talks to the sandbox certifier.
 */
export class InfileClient {
  // node:http on kept-alive connections rather than fetch: under a stream of sales, fetch's web
  // streams and a new connection after each timed-out call were most of the service's CPU (bench/README.md).
  private readonly agent: HttpAgent;

  constructor(
    private readonly baseUrl: string,
    private readonly timeoutMs: number,
  ) {
    this.agent = new URL(baseUrl).protocol === 'https:' ? new HttpsAgent({ keepAlive: true, maxSockets: 16 }) : new HttpAgent({ keepAlive: true, maxSockets: 16 });
  }

  async send(xml: string, identificador: string, credentials: CertifierCredentials): Promise<CertifyOutcome> {
    let res: { status: number; body: string };
    try {
      res = await this.post(xml, {
        'content-type': 'application/xml',
        UsuarioFirma: credentials.signUser ?? '',
        LlaveFirma: credentials.signKey ?? '',
        UsuarioApi: credentials.apiUser ?? '',
        LlaveApi: credentials.apiKey ?? '',
        Identificador: identificador,
      });
    } catch (err) {
      const timedOut = (err as { code?: unknown } | null)?.code === 'ETIMEDOUT';
      return { kind: 'unavailable', message: timedOut ? 'El certificador no respondió a tiempo; se reintentará.' : 'No se pudo conectar con el certificador; se reintentará.' };
    }
    let answer: CertifierAnswer;
    try {
      answer = JSON.parse(res.body) as CertifierAnswer;
    } catch {
      return { kind: 'unavailable', message: `El certificador respondió con un error (HTTP ${res.status}); se reintentará.` };
    }
    if (res.status >= 500 || res.status === 429) return { kind: 'unavailable', message: `El certificador respondió con un error (HTTP ${res.status}); se reintentará.` };
    const messages = (answer.descripcion_errores ?? []).map((e) => e.mensaje_error).filter(Boolean);
    const xmlCertified = answer.xml_certificado ? Buffer.from(answer.xml_certificado, 'base64').toString('utf8') : null;
    const already = !answer.resultado && messages.some((m) => ALREADY_CERTIFIED.test(m));
    if ((answer.resultado || already) && xmlCertified) {
      return { kind: 'certified', xml: xmlCertified, uuid: answer.uuid ?? null, series: answer.serie ?? null, number: answer.numero ?? null, alreadyCertified: already };
    }
    if (already) return { kind: 'unavailable', message: 'El certificador indica que el documento ya fue certificado pero no lo devolvió; se reintentará.' };
    return { kind: 'refused', message: messages.join(' | ') || answer.descripcion || 'El certificador rechazó el documento.' };
  }

  /** One POST of the document; rejects on a connection error or after timeoutMs (code ETIMEDOUT). */
  private post(body: string, headers: Record<string, string>): Promise<{ status: number; body: string }> {
    const url = new URL(UNIFIED_PATH, this.baseUrl);
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    return new Promise((resolve, reject) => {
      const req = send(url, { method: 'POST', agent: this.agent, headers: { ...headers, 'content-length': Buffer.byteLength(body) } }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          clearTimeout(deadline);
          resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') });
        });
        res.on('error', reject);
      });
      // The whole call (connection, sending, the answer) within timeoutMs.
      const deadline = setTimeout(() => req.destroy(Object.assign(new Error('timeout'), { code: 'ETIMEDOUT' })), this.timeoutMs);
      req.on('error', (err) => {
        clearTimeout(deadline);
        reject(err);
      });
      req.end(body);
    });
  }
}
