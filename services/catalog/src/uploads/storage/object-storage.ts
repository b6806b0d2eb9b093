/** An object read back from storage. */
export interface StoredObject {
  data: Buffer;
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
  get(key: string): Promise<StoredObject | null>;
  exists(key: string): Promise<boolean>;
  /** Removes an object; a key that holds nothing is not an error. */
  delete(key: string): Promise<void>;
}
