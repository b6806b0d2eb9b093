import { mkdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import nodemailer, { type Transporter } from 'nodemailer';
import type { Logger } from 'pino';

export interface ResetMail {
  to: string;
  firstName: string;
  link: string;
}

export interface MailerOptions {
  /** smtp://… ; without it mail is written under `${dataDir}/mail/` (the log names the file, never the link). */
  smtpUrl?: string;
  from: string;
  dataDir: string;
  logger: Logger;
}

/** The Spanish e-mail of a password reset (text and HTML). */
export function composeResetMail(mail: ResetMail, from: string) {
  const text = [
    `Hola ${mail.firstName}:`,
    '',
    'Recibimos una solicitud para restablecer la contraseña de tu cuenta de Tiendita.',
    'Abre este enlace para elegir una contraseña nueva:',
    '',
    mail.link,
    '',
    'El enlace vence en 1 hora y solo puede usarse una vez.',
    'Si no pediste este cambio, ignora este correo: tu contraseña seguirá siendo la misma.',
    '',
    '— El equipo de Tiendita',
  ].join('\n');
  const escape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
  const html = `<p>Hola ${escape(mail.firstName)}:</p>
<p>Recibimos una solicitud para restablecer la contraseña de tu cuenta de Tiendita.</p>
<p><a href="${escape(mail.link)}">Restablecer mi contraseña</a></p>
<p>El enlace vence en 1 hora y solo puede usarse una vez.<br>Si no pediste este cambio, ignora este correo: tu contraseña seguirá siendo la misma.</p>
<p>— El equipo de Tiendita</p>`;
  return { from, to: mail.to, subject: 'Restablece tu contraseña de Tiendita', text, html };
}

/** Sends reset links: through SMTP when configured, else as .eml files for offline `npm start`. */
export class ResetMailer {
  private readonly smtp: Transporter | null;
  private readonly file: Transporter;

  constructor(private readonly options: MailerOptions) {
    this.smtp = options.smtpUrl ? nodemailer.createTransport(options.smtpUrl) : null;
    this.file = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  }

  async send(mail: ResetMail): Promise<void> {
    await this.deliver(composeResetMail(mail, this.options.from), 'correo de recuperación');
  }

  /**
   * Sends any composed mail the same way (SMTP, else a .eml file under DATA_DIR/mail/); `what`
   * names it in the log. Subscription confirmations go through here too.
   */
  async deliver(message: { from: string; to: string; subject: string; text: string; html: string }, what: string): Promise<void> {
    if (this.smtp) {
      await this.smtp.sendMail(message);
      this.options.logger.info({ to: message.to }, `${what} enviado`);
      return;
    }
    const info = await this.file.sendMail(message);
    const dir = join(this.options.dataDir, 'mail');
    await mkdir(dir, { recursive: true });
    const safeTo = message.to.replace(/[^a-zA-Z0-9@._-]/g, '_');
    const path = join(dir, `${new Date().toISOString().replace(/[:.]/g, '-')}-${safeTo}.eml`);
    // Written aside, then renamed: whoever watches the folder never sees a half-written mail.
    await writeFile(`${path}.part`, info.message as Buffer);
    await rename(`${path}.part`, path);
    // The link carries a token: it stays in the file, never in the log.
    this.options.logger.info({ to: message.to }, `${what} guardado en ${path} (el enlace está en el archivo)`);
  }

  close(): void {
    this.smtp?.close();
  }
}
