import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  from: string;
  to: string[];
  /** The raw message as received (headers and body). */
  raw: string;
  /** The message with quoted-printable soft breaks and escapes undone, to search for text. */
  decoded: string;
  /** The Subject header, RFC 2047 encoded words decoded. */
  subject: string;
}

function decodeHeader(value: string): string {
  // Adjacent encoded words are joined without the whitespace between them (RFC 2047 §6.2).
  const joined = value.replace(/\?=\s+=\?/g, '?==?');
  return joined.replace(/=\?([^?]+)\?([QB])\?([^?]*)\?=/gi, (_all, charset: string, encoding: string, text: string) => {
    const buffer =
      encoding.toUpperCase() === 'B'
        ? Buffer.from(text, 'base64')
        : Buffer.from(text.replace(/_/g, ' ').replace(/=([0-9A-F]{2})/gi, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16))), 'latin1');
    return buffer.toString(charset.toLowerCase() === 'utf-8' ? 'utf8' : 'latin1');
  });
}

function headerOf(raw: string, name: string): string {
  const head = raw.split(/\r?\n\r?\n/, 1)[0].replace(/\r?\n[ \t]+/g, ' ');
  const line = head.split(/\r?\n/).find((l) => l.toLowerCase().startsWith(`${name.toLowerCase()}:`));
  return line ? decodeHeader(line.slice(name.length + 1).trim()) : '';
}

function decodeQuotedPrintable(text: string): string {
  const joined = text.replace(/=\r?\n/g, '');
  const bytes: number[] = [];
  for (let i = 0; i < joined.length; i++) {
    const hex = joined.slice(i + 1, i + 3);
    if (joined[i] === '=' && /^[0-9A-F]{2}$/i.test(hex)) {
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else {
      bytes.push(...Buffer.from(joined[i], 'utf8'));
    }
  }
  return Buffer.from(bytes).toString('utf8');
}

/**
 * A local SMTP server on 127.0.0.1 for tests: point SMTP_URL at `mailbox.url` and read what
 * arrives with `next()`.
 */
export class Mailbox {
  readonly received: ReceivedMail[] = [];
  private waiters: ((mail: ReceivedMail) => void)[] = [];
  private server: SMTPServer;
  url = '';

  constructor() {
    this.server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS', 'AUTH'],
      logger: false,
      onData: (stream, session, callback) => {
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => {
          const raw = Buffer.concat(chunks).toString('utf8');
          const mail: ReceivedMail = {
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((r) => r.address),
            raw,
            decoded: decodeQuotedPrintable(raw),
            subject: headerOf(raw, 'Subject'),
          };
          const waiter = this.waiters.shift();
          if (waiter) waiter(mail);
          else this.received.push(mail);
          callback();
        });
      },
    });
  }

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    const address = this.server.server.address();
    if (!address || typeof address === 'string') throw new Error('sin dirección');
    this.url = `smtp://127.0.0.1:${address.port}`;
    return this;
  }

  /** The next mail to arrive (or one already waiting), within `timeoutMs`. */
  next(timeoutMs = 5000): Promise<ReceivedMail> {
    const waiting = this.received.shift();
    if (waiting) return Promise.resolve(waiting);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w !== deliver);
        reject(new Error('no llegó ningún correo'));
      }, timeoutMs);
      const deliver = (mail: ReceivedMail) => {
        clearTimeout(timer);
        resolve(mail);
      };
      this.waiters.push(deliver);
    });
  }

  stop(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
