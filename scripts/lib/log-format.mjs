// Console output of `npm start`: each child's lines prefixed with its name, and its pino JSON
// lines shown as short readable text (the JSON stays the format of record in production).

const colors = { identity: 35, catalog: 36, ordering: 33, inventory: 32, reporting: 34, gateway: 95, build: 90 };
const levelColors = { fatal: 31, error: 31, warn: 33, info: 0, debug: 90, trace: 90 };

function paint(code, text, stream) {
  return stream.isTTY && code ? `\x1b[${code}m${text}\x1b[0m` : text;
}

const known = new Set(['level', 'time', 'service', 'msg', 'pid', 'hostname', 'context', 'err', 'reqId']);

/** One pino JSON line as `HH:MM:SS nivel mensaje k=v …`; anything else unchanged. */
export function formatLogLine(line, stream = process.stdout) {
  if (!line.startsWith('{')) return line;
  let entry;
  try {
    entry = JSON.parse(line);
  } catch {
    return line;
  }
  if (typeof entry !== 'object' || entry === null || !entry.level) return line;
  const time = typeof entry.time === 'string' ? entry.time.slice(11, 19) : new Date().toISOString().slice(11, 19);
  const level = String(entry.level);
  let text;
  if (entry.msg === 'solicitud' && entry.method) {
    text = `${entry.method} ${entry.url} ${entry.status} ${entry.ms}ms`;
  } else {
    const extra = Object.entries(entry)
      .filter(([k]) => !known.has(k))
      .map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`)
      .join(' ');
    text = [entry.context ? `(${entry.context})` : '', entry.msg ?? '', extra].filter(Boolean).join(' ');
  }
  if (entry.err) {
    const stack = entry.err.stack || `${entry.err.type ?? 'Error'}: ${entry.err.message}`;
    text += `\n${String(stack)
      .split('\n')
      .map((l) => `    ${l}`)
      .join('\n')}`;
  }
  return `${paint(90, time, stream)} ${paint(levelColors[level] ?? 0, level.padEnd(5), stream)} ${text}`;
}

/** A 'data' handler that writes complete lines to `stream`, each prefixed with `[name]`. */
export function prefixer(name, stream, format = (line) => line) {
  const prefix = paint(colors[name] ?? 0, `[${name}]`, stream);
  let pending = '';
  return (chunk) => {
    pending += chunk.toString('utf8');
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) {
      if (line.trim() === '') continue;
      for (const part of format(line, stream).split('\n')) stream.write(`${prefix} ${part}\n`);
    }
  };
}
