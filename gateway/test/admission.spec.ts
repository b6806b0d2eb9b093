// The gateway's cap on calls waiting on one service (proxy/admission.ts): past it, the Spanish 503 at once.
import { SERVICE_UNAVAILABLE_MESSAGE } from '@tiendita/service-kit';
import { ServiceAdmission } from '../src/proxy/admission';

describe('the gateway lets at most N calls wait on one service and answers the rest 503 at once', () => {
  it('refuses the call past the cap without calling the service, counts per service, and frees the room when a call ends, failed or not', async () => {
    const admission = new ServiceAdmission(2);
    const releases: (() => void)[] = [];
    const slow = () => new Promise<string>((resolve) => releases.push(() => resolve('ok')));
    const first = admission.run('ordering', slow);
    const second = admission.run('ordering', slow);
    let called = false;
    await expect(
      admission.run('ordering', async () => {
        called = true;
        return 'no';
      }),
    ).rejects.toMatchObject({ status: 503, message: SERVICE_UNAVAILABLE_MESSAGE });
    expect(called).toBe(false);
    // Another service has its own room.
    await expect(admission.run('catalog', async () => 'catálogo')).resolves.toBe('catálogo');
    releases.forEach((r) => r());
    await expect(Promise.all([first, second])).resolves.toEqual(['ok', 'ok']);
    await expect(admission.run('ordering', () => Promise.reject(new Error('falló')))).rejects.toThrow('falló');
    expect(admission.busy('ordering')).toBe(0);
  });

  it('0 means no cap', async () => {
    const admission = new ServiceAdmission(0);
    const never = Array.from({ length: 500 }, () => admission.run('ordering', () => new Promise(() => undefined)));
    expect(never).toHaveLength(500);
    expect(admission.busy('ordering')).toBe(500);
  });
});
