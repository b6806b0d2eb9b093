// Free TCP ports on 127.0.0.1 for the project's own test stacks, benches and `npm run test:e2e`.
// CommonJS so the .mjs scripts, the TypeScript tests (jest, swc) and the benches share one copy.
'use strict';
const net = require('node:net');
const { readFileSync } = require('node:fs');

/** Whether a listener can bind `port` on 127.0.0.1 right now. */
function portFree(port) {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/** The first port of the kernel's ephemeral range (source ports of outgoing connections). */
function ephemeralStart() {
  try {
    return Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]) || 32768;
  } catch {
    return 32768; // not Linux: the usual start of the range
  }
}

/**
 * `size` consecutive ports free right now, the first returned. They are chosen at random below the
 * ephemeral range: a port inside it can be taken, between this check and the listen, by the source
 * port of any outgoing connection (services open dozens while they start), an EADDRINUSE at random.
 */
async function freePortBlock(size = 1) {
  const low = 10000;
  const span = Math.max(100, ephemeralStart() - low - size - 10);
  for (let attempt = 0; attempt < 100; attempt++) {
    const base = low + Math.floor(Math.random() * span);
    let free = true;
    for (let p = base; p < base + size && free; p++) free = await portFree(p);
    if (free) return base;
  }
  throw new Error(`no encontré ${size} puertos libres seguidos`);
}

/** One free port (see freePortBlock). */
function freePort() {
  return freePortBlock(1);
}

module.exports = { freePort, freePortBlock, portFree };
