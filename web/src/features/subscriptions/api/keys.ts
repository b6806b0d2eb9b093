/** Query keys of the subscriptions feature; joined by '/' they are the GET paths. */
export const subscriptionKeys = {
  all: ['/api/subscriptions'] as const,
  list: (page: number, limit: number) => ['/api/subscriptions', { page, limit }] as const,
};
