// How `npm start` treats a service that exits on its own: started again at once after its first
// crash (a kill or a one-off fault: every second counts for the shops), then after a pause that
// grows with each further crash (0.5 s, 1 s, 2 s…), and left stopped once it has crashed MAX_CRASHES times
// within CRASH_WINDOW_MS: a service that cannot stay up (a bug at start, a broken database) would
// otherwise fill the log and hold a core restarting for ever. The rest of Tiendita keeps serving;
// the gateway answers 503 for the stopped service's routes.
'use strict';

const MAX_CRASHES = 5;
const CRASH_WINDOW_MS = 2 * 60 * 1000;
const FIRST_DELAY_MS = 500;
const MAX_DELAY_MS = 8000;

/**
 * The crash record of one service. `crashed(now)` answers what to do about the exit that just
 * happened: `{ action: 'restart', delayMs, crashes }` or `{ action: 'give-up', crashes }`.
 */
class CrashPolicy {
  constructor({ maxCrashes = MAX_CRASHES, windowMs = CRASH_WINDOW_MS, firstDelayMs = FIRST_DELAY_MS, maxDelayMs = MAX_DELAY_MS } = {}) {
    this.maxCrashes = maxCrashes;
    this.windowMs = windowMs;
    this.firstDelayMs = firstDelayMs;
    this.maxDelayMs = maxDelayMs;
    /** @type {number[]} */
    this.times = [];
  }

  crashed(now = Date.now()) {
    this.times = this.times.filter((t) => now - t < this.windowMs);
    this.times.push(now);
    const crashes = this.times.length;
    if (crashes >= this.maxCrashes) return { action: 'give-up', crashes };
    if (crashes === 1) return { action: 'restart', crashes, delayMs: 0 };
    return { action: 'restart', crashes, delayMs: Math.min(this.maxDelayMs, this.firstDelayMs * 2 ** (crashes - 2)) };
  }
}

/** How an exit reads in the log: the signal, or the exit code. */
function exitText({ code, signal }) {
  return signal ?? `código ${code}`;
}

/** The log lines of the supervisor, in Spanish like the rest of `npm start`. */
const supervisorMessages = {
  restarting: (name, exit, decision) =>
    `[${name}] terminó inesperadamente (${exitText(exit)}); ${decision.delayMs === 0 ? 'se reinicia ya' : `se reinicia en ${(decision.delayMs / 1000).toLocaleString('es-GT')} s`} (caída ${decision.crashes} de ${MAX_CRASHES} permitidas en 2 minutos); el resto de Tiendita sigue atendiendo`,
  givingUp: (name, exit, decision) =>
    `[${name}] terminó inesperadamente (${exitText(exit)}) por ${decision.crashes}.ª vez en 2 minutos: queda detenido (revisa sus mensajes de arriba y vuelve a iniciar Tiendita); el gateway responde 503 a sus rutas`,
  back: (name, ms) => `[${name}] de nuevo en servicio (${(ms / 1000).toLocaleString('es-GT', { maximumFractionDigits: 1 })} s después de caer)`,
  notBack: (name) => `[${name}] no respondió en /health tras reiniciarse; se detiene y se reintenta`,
};

module.exports = { CrashPolicy, supervisorMessages, MAX_CRASHES, CRASH_WINDOW_MS };
