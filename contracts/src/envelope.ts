import { z } from 'zod';

/** Metadata carried by every event, beside its type and data. */
export const EventMetadata = z.object({
  eventId: z.string().uuid(),
  schemaVersion: z.number().int().positive(),
  storeId: z.string().nullable(),
  occurredAt: z.string(),
  correlationId: z.string().nullable(),
  causationId: z.string().nullable(),
  actor: z.string().nullable(),
});
export type EventMetadata = z.infer<typeof EventMetadata>;

/** An event as it travels between services (postgres or kafka transport). */
export const EventEnvelope = EventMetadata.extend({
  type: z.string(),
  streamId: z.string(),
  streamPosition: z.number().int().nonnegative(),
  globalPosition: z.number().int().positive(),
  data: z.unknown(),
});
export type EventEnvelope = z.infer<typeof EventEnvelope>;
