import { ALREADY_SUBSCRIBED, SubscriptionMessages, type SubscriptionEvent } from '@tiendita/contracts';
import { deciderSpec } from '@tiendita/eventsourcing/testing';
import { httpStatusOf } from '@tiendita/service-kit';
import { AlreadySubscribedError, subscriptionDecider, type Subscribe } from './subscription.decider';
import { subscriptionIdOf, unsubscribeToken, verifyUnsubscribeToken } from '../mail/subscription-mail';

const spec = deciderSpec(subscriptionDecider);
const storeId = '9d0b2f4e-1111-4c1b-9a55-0c7f2d6f0001';
const subscriptionId = subscriptionIdOf(storeId, 'ana@example.com');
const subscribe = (now: string): Subscribe => ({ type: 'Subscribe', data: { subscriptionId, storeId, email: 'ana@example.com', name: 'Ana', phone: null, now } });
const subscribed = (at: string): SubscriptionEvent => ({
  type: 'CustomerSubscribed',
  data: { subscriptionId, storeId, email: 'ana@example.com', name: 'Ana', phone: null, provider: 'email', subscribedAt: at },
});
const left: SubscriptionEvent = { type: 'CustomerUnsubscribed', data: { subscriptionId, storeId, unsubscribedAt: '2026-03-02T00:00:00.000Z' } };

describe('Subscription decider', () => {
  it('subscribes', () => {
    spec.given([]).when(subscribe('2026-03-01T00:00:00.000Z')).then([subscribed('2026-03-01T00:00:00.000Z')]);
  });

  it('refuses an address already subscribed and active: 409 ALREADY_SUBSCRIBED', () => {
    spec.given([subscribed('2026-03-01T00:00:00.000Z')]).when(subscribe('2026-03-03T00:00:00.000Z')).thenThrows(AlreadySubscribedError, SubscriptionMessages.alreadySubscribed);
    expect(new AlreadySubscribedError()).toMatchObject({ code: ALREADY_SUBSCRIBED });
    expect(httpStatusOf(new AlreadySubscribedError())).toBe(409);
  });

  it('lets an unsubscribed address subscribe again', () => {
    spec.given([subscribed('2026-03-01T00:00:00.000Z'), left]).when(subscribe('2026-03-03T00:00:00.000Z')).then([subscribed('2026-03-03T00:00:00.000Z')]);
  });

  it('unsubscribes once; the second click changes nothing', () => {
    spec.given([subscribed('2026-03-01T00:00:00.000Z')]).when({ type: 'Unsubscribe', data: { now: '2026-03-02T00:00:00.000Z' } }).then([left]);
    spec.given([subscribed('2026-03-01T00:00:00.000Z'), left]).when({ type: 'Unsubscribe', data: { now: '2026-03-04T00:00:00.000Z' } }).then([]);
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
