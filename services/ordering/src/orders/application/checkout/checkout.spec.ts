import { type CheckoutContext, type CheckoutStep, newCheckoutContext, runCheckout } from './checkout';

const input = {
  kind: 'public' as const,
  storeParam: 'demo',
  idempotencyKey: undefined,
  wanted: [{ productId: '33333333-3333-4333-8333-333333333333', quantity: 1 }],
  customer: { name: 'Ana', phone: '5555', address: null, email: null, nit: null },
  notes: null,
  paymentMethod: null,
  cashReceived: null,
  author: { name: 'Ana', id: 'public' },
};

/** A step that records what it did and undid. */
function step(name: string, log: string[], fail = false, compensates = true): CheckoutStep {
  return {
    name,
    run: async () => {
      log.push(`run ${name}`);
      if (fail) throw new Error(`${name} falló`);
    },
    compensate: compensates ? async () => void log.push(`undo ${name}`) : undefined,
  };
}

describe('runCheckout', () => {
  it('runs every step in order', async () => {
    const log: string[] = [];
    await runCheckout([step('price', log), step('reserve', log), step('append', log)], newCheckoutContext(input), () => undefined);
    expect(log).toEqual(['run price', 'run reserve', 'run append']);
  });

  it('a failed step undoes the steps done, last first (a failed append releases the reservation at once), and fails with its error', async () => {
    const log: string[] = [];
    const steps = [step('price', log, false, false), step('reserve', log), step('claim', log), step('append', log, true)];
    await expect(runCheckout(steps, newCheckoutContext(input), () => undefined)).rejects.toThrow('append falló');
    expect(log).toEqual(['run price', 'run reserve', 'run claim', 'run append', 'undo claim', 'undo reserve']);
  });

  it('an undo that fails is reported and the others still run; the answer is the first error', async () => {
    const log: string[] = [];
    const reported: string[] = [];
    const broken: CheckoutStep = { name: 'claim', run: async () => undefined, compensate: async () => Promise.reject(new Error('sin red')) };
    const steps = [step('reserve', log), broken, step('append', log, true)];
    await expect(runCheckout(steps, newCheckoutContext(input), (name) => reported.push(name))).rejects.toThrow('append falló');
    expect(reported).toEqual(['claim']);
    expect(log).toContain('undo reserve');
  });

  it('a step that finds the order placed already ends the run', async () => {
    const log: string[] = [];
    const found: CheckoutStep = { name: 'read', run: async (ctx: CheckoutContext) => void (ctx.existing = { status: 'placed' } as CheckoutContext['existing']) };
    await runCheckout([found, step('reserve', log)], newCheckoutContext(input), () => undefined);
    expect(log).toEqual([]);
  });
});
