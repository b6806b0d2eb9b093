/** Injection token of the clock; tests swap it to move time (reset-link expiry). */
export const CLOCK = 'IDENTITY_CLOCK';

/** Where "now" comes from: commands get their time from here, never from Date inside the domain. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };
