import { inflateSync } from 'node:zlib';

/** The text pdfkit draws with its standard fonts: hex strings inside the (deflated or plain) content streams, one line per text operator. */
export function pdfText(pdf: Buffer): string {
  const raw = pdf.toString('latin1');
  let text = '';
  const re = /stream\r?\n/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(raw))) {
    const start = m.index + m[0].length;
    const end = raw.indexOf('endstream', start);
    const chunk = pdf.subarray(start, end);
    let content: string;
    try {
      content = inflateSync(chunk).toString('latin1');
    } catch {
      content = chunk.toString('latin1');
    }
    for (const line of content.split('\n')) {
      const parts = [...line.matchAll(/<([0-9a-fA-F]+)>/g)].map((h) => Buffer.from(h[1], 'hex').toString('latin1'));
      if (parts.length && /T[Jj]/.test(line)) text += `${parts.join('')}\n`;
    }
  }
  return text;
}
