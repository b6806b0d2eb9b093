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
  constructor(
    private readonly baseUrl: string,
    private readonly timeoutMs: number,
  ) {}

  async send(xml: string, identificador: string, credentials: CertifierCredentials): Promise<CertifyOutcome> {
    let res: Response;
    try {
      res = await fetch(new URL(UNIFIED_PATH, this.baseUrl), {
        method: 'POST',
        headers: {
          'content-type': 'application/xml',
          UsuarioFirma: credentials.signUser ?? '',
          LlaveFirma: credentials.signKey ?? '',
          UsuarioApi: credentials.apiUser ?? '',
          LlaveApi: credentials.apiKey ?? '',
          Identificador: identificador,
        },
        body: xml,
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    } catch (err) {
      // A DOMException (the timeout's abort) may come from another realm: look at its name only.
      const name = (err as { name?: unknown } | null)?.name;
      const timedOut = name === 'TimeoutError' || name === 'AbortError';
      return { kind: 'unavailable', message: timedOut ? 'El certificador no respondió a tiempo; se reintentará.' : 'No se pudo conectar con el certificador; se reintentará.' };
    }
    let answer: CertifierAnswer;
    try {
      answer = (await res.json()) as CertifierAnswer;
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
}
