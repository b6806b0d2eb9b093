// Reads the password-reset mail the identity service writes to DATA_DIR/mail/ when SMTP_URL is unset.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** Undoes quoted-printable soft line breaks and =XX escapes, enough to find a URL in a mail. */
function decodeQuotedPrintable(text) {
  return text.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, hex) => String.fromCharCode(parseInt(hex, 16)));
}

/** Waits for the newest mail addressed to `email` written after `since`, and returns its reset path. */
export function waitForResetLink(dataDir, email, since, timeoutMs = 15_000) {
  return waitForMailLink(dataDir, email, since, /https?:\/\/[^\s"<>]+(\/reset-password\?token=[^\s"<>&]+)/, timeoutMs);
}

/** Waits for the newest mail addressed to `email` written after `since`, and returns the first group of `pattern` in it. */
export async function waitForMailLink(dataDir, email, since, pattern, timeoutMs = 15_000) {
  const dir = join(dataDir, 'mail');
  const deadline = Date.now() + timeoutMs;
  const safeTo = email.replace(/[^a-zA-Z0-9@._-]/g, '_');
  while (Date.now() < deadline) {
    let files = [];
    try {
      files = readdirSync(dir)
        .filter((f) => f.endsWith('.eml') && f.includes(safeTo))
        .map((f) => ({ path: join(dir, f), mtime: statSync(join(dir, f)).mtimeMs }))
        .filter((f) => f.mtime >= since)
        .sort((a, b) => b.mtime - a.mtime);
    } catch {
      // the folder appears with the first mail
    }
    if (files.length > 0) {
      const body = decodeQuotedPrintable(readFileSync(files[0].path, 'utf8'));
      const match = pattern.exec(body);
      if (!match) throw new Error(`el correo ${files[0].path} no trae un enlace ${pattern}`);
      return match[1];
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`no llegó ningún correo para ${email} a ${dir}`);
}
