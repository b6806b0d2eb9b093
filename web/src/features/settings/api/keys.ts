/** Query keys of the settings feature; joined by '/' they are the GET paths. */
export const settingsKeys = {
  all: ['/api/store/settings'] as const,
  settings: ['/api/store/settings'] as const,
  subdomain: (subdomain: string) => ['/api/store/subdomain-availability', subdomain] as const,
};
