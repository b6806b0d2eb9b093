import { SubscriptionMessages, type SubscriptionEvent } from '@tiendita/contracts';
import { assertNever, type Decider, ValidationError } from '@tiendita/eventsourcing';

/** Days a confirmation link stays valid after the request it answers. */
export const CONFIRM_LINK_DAYS = 7;

type Known = { subscriptionId: string; storeId: string; email: string };

export type SubscriptionState =
  | { status: 'none' }
  | ({ status: 'pending'; name: string; phone: string | null; requestedAt: string } & Known)
  | ({ status: 'active' } & Known)
  | ({ status: 'unsubscribed' } & Known);

/** A shopper asks to subscribe: only a request, until its mailed link confirms it (double opt-in). */
export type Subscribe = {
  type: 'Subscribe';
  data: { subscriptionId: string; storeId: string; email: string; name: string; phone: string | null; now: string };
};
export type ConfirmSubscription = { type: 'ConfirmSubscription'; data: { now: string } };
export type Unsubscribe = { type: 'Unsubscribe'; data: { now: string } };
export type SubscriptionCommand = Subscribe | ConfirmSubscription | Unsubscribe;

const invalidLink = () => new ValidationError(SubscriptionMessages.invalidLink, { fields: { token: SubscriptionMessages.invalidLink } });

export function evolveSubscription(state: SubscriptionState, event: SubscriptionEvent): SubscriptionState {
  switch (event.type) {
    case 'SubscriptionRequested': {
      const d = event.data;
      // A request never ends a subscription that is running (decide does not make one then).
      if (state.status === 'active') return state;
      return { status: 'pending', subscriptionId: d.subscriptionId, storeId: d.storeId, email: d.email, name: d.name, phone: d.phone, requestedAt: d.requestedAt };
    }
    case 'CustomerSubscribed':
      return { status: 'active', subscriptionId: event.data.subscriptionId, storeId: event.data.storeId, email: event.data.email };
    case 'CustomerUnsubscribed':
      return state.status === 'none' ? state : { status: 'unsubscribed', subscriptionId: state.subscriptionId, storeId: state.storeId, email: state.email };
    default:
      return state;
  }
}

export function decideSubscription(command: SubscriptionCommand, state: SubscriptionState): SubscriptionEvent[] {
  switch (command.type) {
    case 'Subscribe': {
      // Already subscribed: nothing happens, and the caller answers as for anyone else (no 409 tells who is subscribed).
      if (state.status === 'active') return [];
      const c = command.data;
      return [{ type: 'SubscriptionRequested', data: { subscriptionId: c.subscriptionId, storeId: c.storeId, email: c.email, name: c.name, phone: c.phone, requestedAt: c.now } }];
    }
    case 'ConfirmSubscription': {
      // Opening the link again after confirming changes nothing.
      if (state.status === 'active') return [];
      if (state.status !== 'pending') throw invalidLink();
      if (Date.parse(command.data.now) - Date.parse(state.requestedAt) > CONFIRM_LINK_DAYS * 24 * 3600 * 1000) {
        throw new ValidationError(SubscriptionMessages.expiredLink, { fields: { token: SubscriptionMessages.expiredLink } });
      }
      return [
        {
          type: 'CustomerSubscribed',
          data: { subscriptionId: state.subscriptionId, storeId: state.storeId, email: state.email, name: state.name, phone: state.phone, provider: 'email', subscribedAt: command.data.now },
        },
      ];
    }
    case 'Unsubscribe':
      // Leaving twice changes nothing the second time.
      if (state.status !== 'active') return [];
      return [{ type: 'CustomerUnsubscribed', data: { subscriptionId: state.subscriptionId, storeId: state.storeId, unsubscribedAt: command.data.now } }];
    default:
      return assertNever(command);
  }
}

/** One subscription per store and e-mail: requested, confirmed by its mailed link, left, and taken again. */
export const subscriptionDecider: Decider<SubscriptionState, SubscriptionCommand, SubscriptionEvent> = {
  initialState: () => ({ status: 'none' }),
  evolve: evolveSubscription,
  decide: decideSubscription,
};
