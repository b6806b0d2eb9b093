/** Query keys of the AI helpers; joined by '/' they are the GET paths (spec 000 §7). */
export const aiKeys = {
  all: ['/api/ai'] as const,
  salesInsights: () => ['/api/ai/sales-insights'] as const,
};
