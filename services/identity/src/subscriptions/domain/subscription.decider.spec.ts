import { SubscriptionMessages, type SubscriptionEvent } from '@tiendita/contracts';
import { ValidationError } from '@tiendita/eventsourcing';
import { deciderSpec } from '@tiendita/eventsourcing/testing';
import { subscriptionDecider, type Subscribe } from './subscription.decider';
import { composeSubscriptionMail, linkToken, subscriptionIdOf, unsubscribeToken, verifyLinkToken, verifyUnsubscribeToken } from '../mail/subscription-mail';

const spec = deciderSpec(subscriptionDecider);
const storeId = '9d0b2f4e-1111-4c1b-9a55-0c7f2d6f0001';
const subscriptionId = subscriptionIdOf(storeId, 'ana@example.com');
const subscribe = (now: string, name = 'Ana'): Subscribe => ({ type: 'Subscribe', data: { subscriptionId, storeId, email: 'ana@example.com', name, phone: null, now } });
const requested = (at: string, name = 'Ana'): SubscriptionEvent => ({ type: 'SubscriptionRequested', data: { subscriptionId, storeId, email: 'ana@example.com', name, phone: null, requestedAt: at } });
const subscribed = (at: string, name = 'Ana'): SubscriptionEvent => ({
  type: 'CustomerSubscribed',
  data: { subscriptionId, storeId, email: 'ana@example.com', name, phone: null, provider: 'email', subscribedAt: at },
});
const confirm = (now: string) => ({ type: 'ConfirmSubscription' as const, data: { now } });
const left: SubscriptionEvent = { type: 'CustomerUnsubscribed', data: { subscriptionId, storeId, unsubscribedAt: '2026-03-02T00:00:00.000Z' } };

describe('Subscription decider (double opt-in)', () => {
  it('a subscribe is only a request; its link confirms it with the latest name', () => {
    spec.given([]).when(subscribe('2026-03-01T00:00:00.000Z')).then([requested('2026-03-01T00:00:00.000Z')]);
    spec
      .given([requested('2026-03-01T00:00:00.000Z'), requested('2026-03-01T01:00:00.000Z', 'Ana María')])
      .when(confirm('2026-03-02T00:00:00.000Z'))
      .then([subscribed('2026-03-02T00:00:00.000Z', 'Ana María')]);
  });

  it('an address already subscribed: nothing happens and nothing is refused (no 409 tells who is subscribed)', () => {
    spec.given([requested('2026-03-01T00:00:00.000Z'), subscribed('2026-03-01T00:00:00.000Z')]).when(subscribe('2026-03-03T00:00:00.000Z')).then([]);
    spec.given([requested('2026-03-01T00:00:00.000Z'), subscribed('2026-03-01T00:00:00.000Z')]).when(confirm('2026-03-03T00:00:00.000Z')).then([]);
  });

  it('a confirmation without a request is an invalid link; after 7 days it has expired', () => {
    spec.given([]).when(confirm('2026-03-01T00:00:00.000Z')).thenThrows(ValidationError, SubscriptionMessages.invalidLink);
    spec.given([requested('2026-03-01T00:00:00.000Z')]).when(confirm('2026-03-08T00:00:01.000Z')).thenThrows(ValidationError, SubscriptionMessages.expiredLink);
  });

  it('lets an unsubscribed address ask and confirm again', () => {
    spec.given([requested('2026-03-01T00:00:00.000Z'), subscribed('2026-03-01T00:00:00.000Z'), left]).when(subscribe('2026-03-03T00:00:00.000Z')).then([requested('2026-03-03T00:00:00.000Z')]);
  });

  it('unsubscribes once; the second click changes nothing', () => {
    spec.given([subscribed('2026-03-01T00:00:00.000Z')]).when({ type: 'Unsubscribe', data: { now: '2026-03-02T00:00:00.000Z' } }).then([left]);
    spec.given([subscribed('2026-03-01T00:00:00.000Z'), left]).when({ type: 'Unsubscribe', data: { now: '2026-03-04T00:00:00.000Z' } }).then([]);
  });
});

describe('subscription mails', () => {
  it('have a fixed text: only the link changes', () => {
    const a = composeSubscriptionMail('confirm', 'a@example.com', 'https://t.gt/x', 'T <t@t.gt>');
    const b = composeSubscriptionMail('confirm', 'b@example.com', 'https://t.gt/y', 'T <t@t.gt>');
    expect(a.text.replace('https://t.gt/x', '')).toBe(b.text.replace('https://t.gt/y', ''));
    expect(a.subject).toBe(b.subject);
  });

  it('a confirmation token does not unsubscribe, nor the other way round', () => {
    const secret = 'un-secreto-de-prueba-de-32-caracteres';
    expect(verifyLinkToken(secret, 'unsubscribe', linkToken(secret, 'confirm', subscriptionId))).toBeNull();
    expect(verifyLinkToken(secret, 'confirm', unsubscribeToken(secret, subscriptionId))).toBeNull();
  });
});

describe('unsubscribe tokens', () => {
  const secret = 'un-secreto-de-prueba-de-32-caracteres';
  it('verify only with the same secret and id', () => {
    const token = unsubscribeToken(secret, subscriptionId);
    expect(verifyUnsubscribeToken(secret, token)).toBe(subscriptionId);
    expect(verifyUnsubscribeToken('otro-secreto-de-prueba-de-32-caract', token)).toBeNull();
    const other = subscriptionIdOf(storeId, 'otra@example.com');
    expect(verifyUnsubscribeToken(secret, `${other}.${token.split('.')[1]}`)).toBeNull();
    expect(verifyUnsubscribeToken(secret, 'basura')).toBeNull();
  });

  it('one id per store and e-mail, whatever its case', () => {
    expect(subscriptionIdOf(storeId, 'ANA@example.com')).toBe(subscriptionId);
    expect(subscriptionId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });
});
