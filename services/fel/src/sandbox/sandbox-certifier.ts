import { isValidCui, isValidNit } from '@tiendita/contracts';
import { createHash, createSign, generateKeyPairSync, type KeyObject, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { satDateTime } from '../documents/dte-xml';

/** The path of INFILE's unified process (sign + certify, or annul), which the sandbox speaks too. */
export const UNIFIED_PATH = '/fel/procesounificado/transaccion/v2/xml';

/** Who the sandbox says certified its documents (a NIT with a valid check digit, no real taxpayer). */
export const SANDBOX_CERTIFIER = { nit: '12345679', name: 'CERTIFICADOR DE PRUEBAS TIENDITA' } as const;

/** How the sandbox behaves: 'ok'; 'slow' answers after `delayMs`; 'refuse' rejects every document; 'down' drops every connection. */
export type SandboxMode = 'ok' | 'slow' | 'refuse' | 'down';

/** INFILE's answer (the JSON of the unified process). */
export interface CertifierAnswer {
  resultado: boolean;
  fecha: string;
  origen: string;
  descripcion: string;
  cantidad_errores: number;
  descripcion_errores: { resultado: boolean; fuente: string; categoria: string; numeral: string; validacion: string; mensaje_error: string }[];
  uuid?: string;
  serie?: string;
  numero?: string;
  xml_certificado?: string;
}

/** Serie and Numero of an authorisation UUID, as SAT's schema defines them (first 8 hex digits; the next 8 as a decimal). */
export function seriesAndNumber(uuid: string): { serie: string; numero: string } {
  const hex = uuid.replace(/-/g, '').toUpperCase();
  return { serie: hex.slice(0, 8), numero: String(parseInt(hex.slice(8, 16), 16)) };
}

function signature(id: string, signed: string, key: KeyObject): string {
  const digest = createHash('sha256').update(signed).digest('base64');
  const signedInfo =
    `<ds:SignedInfo><ds:CanonicalizationMethod Algorithm="http://www.w3.org/TR/2001/REC-xml-c14n-20010315"/>` +
    `<ds:SignatureMethod Algorithm="http://www.w3.org/2001/04/xmldsig-more#ecdsa-sha256"/><ds:Reference URI="#${id}">` +
    `<ds:DigestMethod Algorithm="http://www.w3.org/2001/04/xmlenc#sha256"/><ds:DigestValue>${digest}</ds:DigestValue></ds:Reference></ds:SignedInfo>`;
  const value = createSign('SHA256').update(signedInfo).sign(key, 'base64');
  return `<ds:Signature Id="${id}-firma">${signedInfo}<ds:SignatureValue>${value}</ds:SignatureValue></ds:Signature>`;
}

function errorAnswer(message: string, categoria = 'VALIDACION'): CertifierAnswer {
  return {
    resultado: false,
    fecha: new Date().toISOString(),
    origen: 'Certificador de pruebas',
    descripcion: 'Documento rechazado',
    cantidad_errores: 1,
    descripcion_errores: [{ resultado: false, fuente: 'SANDBOX', categoria, numeral: '1', validacion: '1', mensaje_error: message }],
  };
}

/**
 * A certifier on 127.0.0.1 that speaks INFILE's HTTP API (POST of the XML with the issuer's users
 * and keys in headers, JSON answer), for tests and for a shop trying FEL before it signs with a
 * certifier. It signs (ECDSA P-256) with a key of its own, certifies with a random UUID, remembers each
 * (issuer, Identificador) so a repeated one answers 'already certified' with the first document,
 * and can be made slow, refusing or down.
 */
export class SandboxCertifier {
  mode: SandboxMode = 'ok';
  delayMs = 3000;
  /** Documents certified, by issuer NIT and Identificador (what a repeated request answers). */
  readonly certified = new Map<string, CertifierAnswer>();
  /** Every request received (tests count them). */
  requests = 0;
  /** Documents certified anew (a repeated Identificador answers the first one and is not counted). */
  issued = 0;
  // ECDSA P-256 rather than RSA-2048: a tenth of the CPU per signature (0.2 ms against 2 ms, two per
  // document), which on a shared machine the sale would otherwise pay for (bench fel).
  private readonly key = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey;
  private server: Server | null = null;
  private readonly sockets = new Set<Socket>();
  private port = 0;

  /** Starts listening on 127.0.0.1 (port 0: any free one; a restart reuses the first). Answers the base URL. */
  async start(port = this.port): Promise<string> {
    const server = createServer((req, res) => void this.handle(req, res));
    server.on('connection', (socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve());
    });
    this.server = server;
    this.port = (server.address() as AddressInfo).port;
    return this.url;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** Stops listening and drops open connections (the certifier is down until start()). */
  async stop(): Promise<void> {
    const server = this.server;
    this.server = null;
    if (!server) return;
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    this.requests += 1;
    if (this.mode === 'down') {
      req.socket.destroy();
      return;
    }
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const xml = Buffer.concat(chunks).toString('utf8');
    if (this.mode === 'slow') await new Promise((r) => setTimeout(r, this.delayMs));
    const send = (status: number, body: CertifierAnswer) => {
      if (res.destroyed) return;
      res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
      res.end(JSON.stringify(body));
    };
    if (req.method !== 'POST' || req.url !== UNIFIED_PATH) return send(404, errorAnswer('Recurso no encontrado', 'HTTP'));
    const identificador = String(req.headers['identificador'] ?? '');
    if (!identificador) return send(200, errorAnswer('Falta el encabezado Identificador'));
    if (this.mode === 'refuse') return send(200, errorAnswer('El certificador rechazó el documento: servicio de pruebas en modo de rechazo'));
    send(200, this.certify(xml, identificador));
  }

  private certify(xml: string, identificador: string): CertifierAnswer {
    const annulment = xml.includes('GTAnulacionDocumento');
    const issuer = /NITEmisor="([^"]+)"/.exec(xml)?.[1] ?? '';
    const key = `${issuer}\u0000${identificador}`;
    const previous = this.certified.get(key);
    if (previous) {
      return { ...previous, resultado: false, cantidad_errores: 1, descripcion: 'Documento ya certificado', descripcion_errores: [{ resultado: false, fuente: 'SANDBOX', categoria: 'DUPLICADO', numeral: '1', validacion: '1', mensaje_error: 'Documento ya certificado con este identificador' }] };
    }
    if (!isValidNit(issuer)) return errorAnswer('El NIT del emisor no es válido');
    const receiver = /IDReceptor="([^"]+)"/.exec(xml)?.[1] ?? '';
    const cui = /TipoEspecial="CUI"/.test(xml);
    if (!annulment && receiver !== 'CF' && !(cui ? isValidCui(receiver) : isValidNit(receiver))) {
      return errorAnswer(cui ? 'El CUI del receptor no es válido' : 'El NIT del receptor no es válido');
    }
    if (/Tipo="NCRE"/.test(xml) && !/<cno:ReferenciasNota [^>]*NumeroAutorizacionDocumentoOrigen="[0-9A-F-]{36}"/.test(xml)) {
      return errorAnswer('La nota de crédito debe llevar el complemento ReferenciasNota con la autorización del documento original');
    }
    const now = satDateTime(new Date());
    const certificador = `<dte:NITCertificador>${SANDBOX_CERTIFIER.nit}</dte:NITCertificador><dte:NombreCertificador>${SANDBOX_CERTIFIER.name}</dte:NombreCertificador>`;
    let certifiedXml: string;
    let uuid: string | undefined;
    let serie: string | undefined;
    let numero: string | undefined;
    if (annulment) {
      const cert = `<dte:Certificacion>${certificador}<dte:FechaHoraCertificacion>${now}</dte:FechaHoraCertificacion></dte:Certificacion>`;
      certifiedXml = xml.replace('</dte:AnulacionDTE>', `${cert}</dte:AnulacionDTE>`);
      certifiedXml = certifiedXml.replace('</dte:SAT>', `</dte:SAT>${signature('DatosAnulacion', xml, this.key)}${signature('DatosCertificados', certifiedXml, this.key)}`);
    } else {
      uuid = randomUUID().toUpperCase();
      ({ serie, numero } = seriesAndNumber(uuid));
      const cert = `<dte:Certificacion>${certificador}<dte:NumeroAutorizacion Numero="${numero}" Serie="${serie}">${uuid}</dte:NumeroAutorizacion><dte:FechaHoraCertificacion>${now}</dte:FechaHoraCertificacion></dte:Certificacion>`;
      certifiedXml = xml.replace('</dte:DatosEmision>', `</dte:DatosEmision>${cert}`);
      certifiedXml = certifiedXml.replace('</dte:SAT>', `</dte:SAT>${signature('DatosEmision', xml, this.key)}${signature('DatosCertificados', certifiedXml, this.key)}`);
    }
    const answer: CertifierAnswer = {
      resultado: true,
      fecha: now,
      origen: 'Certificador de pruebas',
      descripcion: annulment ? 'Anulación certificada' : 'Documento certificado',
      cantidad_errores: 0,
      descripcion_errores: [],
      uuid,
      serie,
      numero,
      xml_certificado: Buffer.from(certifiedXml, 'utf8').toString('base64'),
    };
    this.certified.set(key, answer);
    if (!annulment) this.issued += 1;
    return answer;
  }
}
