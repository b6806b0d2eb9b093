import { Signer } from '@fastify/cookie';
import { MemoCookieSigner } from './cookie-signer';

const secret = 'a'.repeat(40);

describe('MemoCookieSigner', () => {
  it('signs exactly as @fastify/cookie does, so cookies signed before keep working, and verifies both ways', () => {
    const reference = new Signer(secret, 'sha256');
    const memo = new MemoCookieSigner(secret);
    for (const sid of ['abc', 'ZmFrZS1zZXNzaW9uLWlkLTE5Mi1iaXRz', 'x'.repeat(32)]) {
      expect(memo.sign(sid)).toBe(reference.sign(sid));
      expect(memo.sign(sid)).toBe(reference.sign(sid)); // remembered
      expect(memo.unsign(reference.sign(sid))).toEqual({ valid: true, renew: false, value: sid });
      expect(memo.unsign(reference.sign(sid))).toEqual({ valid: true, renew: false, value: sid }); // remembered
      expect(reference.unsign(memo.sign(sid))).toEqual({ valid: true, renew: false, value: sid });
    }
  });

  it('refuses a tampered, unsigned or foreign cookie, also after the real one was verified', () => {
    const memo = new MemoCookieSigner(secret);
    const good = memo.sign('sesion');
    expect(memo.unsign(good).valid).toBe(true);
    const refused = { valid: false, renew: false, value: null };
    expect(memo.unsign(`otra${good.slice(6)}`)).toEqual({ ...refused });
    expect(memo.unsign(`${good.slice(0, -1)}${good.endsWith('A') ? 'B' : 'A'}`)).toEqual(refused);
    expect(memo.unsign('sesion')).toEqual(refused);
    expect(memo.unsign('sesion.')).toEqual(refused);
    expect(memo.unsign(new MemoCookieSigner('b'.repeat(40)).sign('sesion'))).toEqual(refused);
  });

  it('keeps a bounded number of values', () => {
    const memo = new MemoCookieSigner(secret);
    for (let i = 0; i < 12_000; i++) expect(memo.unsign(memo.sign(`s${i}`)).value).toBe(`s${i}`);
    const sizes = memo as unknown as { signed: Map<string, string>; verified: Map<string, string> };
    expect(sizes.signed.size).toBeLessThanOrEqual(5000);
    expect(sizes.verified.size).toBeLessThanOrEqual(5000);
  });
});
