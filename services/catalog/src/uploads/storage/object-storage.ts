import type { Readable } from 'node:stream';

/** An object read back from storage, whole (small things: a variant just made). */
export interface StoredObject {
  data: Buffer;
  contentType: string;
  size: number;
}

/** An object opened for reading: its bytes come as a stream, never held in memory whole. */
export interface OpenedObject {
  stream: Readable;
  contentType: string;
  size: number;
}

/**
 * The storage port of uploaded images. Keys are relative paths such as `products/<fileName>` or
 * `variants/400/<fileName>.webp`. The local-disk adapter serves `npm start`; an S3-compatible
 * adapter can implement the same port later.
 */
export interface ObjectStorage {
  put(key: string, data: Buffer, contentType: string): Promise<void>;
  /** The object as a stream (what is served to browsers), or null when the key holds nothing. */
  open(key: string): Promise<OpenedObject | null>;
  exists(key: string): Promise<boolean>;
  /** Removes an object; a key that holds nothing is not an error. */
  delete(key: string): Promise<void>;
}
