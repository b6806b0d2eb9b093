import { ALREADY_SUBSCRIBED, SubscriptionMessages, type SubscriptionEvent } from '@tiendita/contracts';
import { assertNever, type Decider, IllegalStateError } from '@tiendita/eventsourcing';

/** 409 ALREADY_SUBSCRIBED: the address is subscribed to that store and has not left. */
export class AlreadySubscribedError extends IllegalStateError {
  constructor() {
    super(SubscriptionMessages.alreadySubscribed, { fields: { email: SubscriptionMessages.alreadySubscribed } }, ALREADY_SUBSCRIBED);
  }
}

export type SubscriptionState =
  | { status: 'none' }
  | { status: 'active'; subscriptionId: string; storeId: string; email: string }
  | { status: 'unsubscribed'; subscriptionId: string; storeId: string; email: string };

export type Subscribe = {
  type: 'Subscribe';
  data: { subscriptionId: string; storeId: string; email: string; name: string; phone: string | null; now: string };
};
export type Unsubscribe = { type: 'Unsubscribe'; data: { now: string } };
export type SubscriptionCommand = Subscribe | Unsubscribe;

export function evolveSubscription(state: SubscriptionState, event: SubscriptionEvent): SubscriptionState {
  switch (event.type) {
    case 'CustomerSubscribed':
      return { status: 'active', subscriptionId: event.data.subscriptionId, storeId: event.data.storeId, email: event.data.email };
    case 'CustomerUnsubscribed':
      return state.status === 'none' ? state : { ...state, status: 'unsubscribed' };
    default:
      return state;
  }
}

export function decideSubscription(command: SubscriptionCommand, state: SubscriptionState): SubscriptionEvent[] {
  switch (command.type) {
    case 'Subscribe': {
      if (state.status === 'active') throw new AlreadySubscribedError();
      const c = command.data;
      return [
        {
          type: 'CustomerSubscribed',
          data: { subscriptionId: c.subscriptionId, storeId: c.storeId, email: c.email, name: c.name, phone: c.phone, provider: 'email', subscribedAt: c.now },
        },
      ];
    }
    case 'Unsubscribe':
      // Opening the link twice changes nothing the second time.
      if (state.status !== 'active') return [];
      return [{ type: 'CustomerUnsubscribed', data: { subscriptionId: state.subscriptionId, storeId: state.storeId, unsubscribedAt: command.data.now } }];
    default:
      return assertNever(command);
  }
}

/** One subscription per store and e-mail; it may be left and taken again. */
export const subscriptionDecider: Decider<SubscriptionState, SubscriptionCommand, SubscriptionEvent> = {
  initialState: () => ({ status: 'none' }),
  evolve: evolveSubscription,
  decide: decideSubscription,
};
