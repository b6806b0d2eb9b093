// The crash policy of `npm start` (scripts/lib/supervisor.cjs); the fault test runs it for real.
const { CrashPolicy, supervisorMessages } = require('../../scripts/lib/supervisor.cjs') as {
  CrashPolicy: new (options?: Record<string, number>) => { crashed(now: number): { action: 'restart' | 'give-up'; crashes: number; delayMs?: number } };
  supervisorMessages: Record<string, (...args: unknown[]) => string>;
};

describe('npm start restarts a crashed service with backoff and gives up on a crash loop', () => {
  it('restarts at once after the first crash, then waits longer after each one: 0.5 s, 1 s, 2 s, and leaves it stopped at the 5th within 2 minutes', () => {
    const policy = new CrashPolicy();
    const t0 = 1_000_000;
    const decisions = [0, 10_000, 20_000, 30_000, 40_000].map((dt) => policy.crashed(t0 + dt));
    expect(decisions.map((d) => d.action)).toEqual(['restart', 'restart', 'restart', 'restart', 'give-up']);
    expect(decisions.slice(0, 4).map((d) => d.delayMs)).toEqual([0, 500, 1000, 2000]);
  });

  it('forgets crashes older than 2 minutes: a service that falls now and then is always restarted', () => {
    const policy = new CrashPolicy();
    const decisions = Array.from({ length: 10 }, (_, i) => policy.crashed(i * 61_000));
    expect(decisions.every((d) => d.action === 'restart')).toBe(true);
    expect(decisions[9]).toMatchObject({ crashes: 2, delayMs: 500 });
  });

  it('says so in Spanish: what happened, when it comes back, why it stays stopped', () => {
    const exit = { code: null, signal: 'SIGKILL' };
    expect(supervisorMessages.restarting('ordering', exit, { action: 'restart', crashes: 1, delayMs: 0 })).toBe(
      '[ordering] terminó inesperadamente (SIGKILL); se reinicia ya (caída 1 de 5 permitidas en 2 minutos); el resto de Tiendita sigue atendiendo',
    );
    expect(supervisorMessages.restarting('ordering', exit, { action: 'restart', crashes: 2, delayMs: 500 })).toMatch(/; se reinicia en 0.5 s \(caída 2 de 5/);
    expect(supervisorMessages.givingUp('ordering', { code: 1, signal: null }, { action: 'give-up', crashes: 5 })).toMatch(/^\[ordering\] terminó inesperadamente \(código 1\) por 5\.ª vez en 2 minutos: queda detenido/);
    expect(supervisorMessages.back('ordering', 4210)).toBe('[ordering] de nuevo en servicio (4.2 s después de caer)');
  });
});
