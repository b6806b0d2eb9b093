/** Query keys of the store feature; joined by '/' they are the GET paths (spec 000 §7). */
export const storeKeys = {
  all: ['/api/store'] as const,
  current: ['/api/store'] as const,
};
