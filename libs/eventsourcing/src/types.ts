import type { PoolClient } from 'pg';

/** Metadata stored beside each event's data. */
export interface EventMetadata {
  eventId: string;
  schemaVersion: number;
  storeId: string | null;
  occurredAt: string;
  correlationId: string | null;
  causationId: string | null;
  actor: string | null;
}

/** A domain event as deciders produce it: a plain object, no class. */
export interface DomainEvent<Type extends string = string, Data = unknown> {
  type: Type;
  data: Data;
}

/** Metadata a caller may set when appending; the rest is filled in. */
export type AppendMetadata = Partial<EventMetadata>;

/** An event read back from the store, with its positions and full metadata. */
export interface RecordedEvent<E extends DomainEvent = DomainEvent> {
  globalPosition: number;
  streamId: string;
  streamPosition: number;
  type: E['type'];
  data: E['data'];
  metadata: EventMetadata;
  recordedAt: Date;
}

/**
 * Expected version of a stream before an append: the number of events it holds
 * (0 = the stream must not exist yet), or 'any' to skip the check.
 */
export type ExpectedVersion = number | 'any';

export interface AppendResult {
  /** Stream version after the append (= number of events in the stream). */
  nextExpectedVersion: number;
  /** Global positions of the appended events, in order. */
  globalPositions: number[];
  /** Position of the last appended event in the global order: what a read-your-writes wait waits for. */
  position: { transactionId: string; globalPosition: number };
}

/** A consumer of events: apply a batch inside the consumer's own transaction. */
export type BatchHandler = (events: RecordedEvent[], tx: PoolClient) => Promise<void>;
