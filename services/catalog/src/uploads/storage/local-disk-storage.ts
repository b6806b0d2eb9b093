import { mkdir, open, rename, stat, unlink, writeFile } from 'node:fs/promises';
import { dirname, join, normalize, sep } from 'node:path';
import { randomBytes } from 'node:crypto';
import { sniffImage } from '../image-check';
import type { ObjectStorage, OpenedObject } from './object-storage';

const TYPES = { jpeg: 'image/jpeg', png: 'image/png', webp: 'image/webp' } as const;

/** Files under a root directory (DATA_DIR/uploads); the content type is read from the file's own bytes. */
export class LocalDiskStorage implements ObjectStorage {
  constructor(readonly root: string) {}

  private path(key: string): string {
    const path = normalize(join(this.root, key));
    if (!path.startsWith(normalize(this.root) + sep)) throw new Error(`Clave de almacenamiento inválida: ${key}`);
    return path;
  }

  async put(key: string, data: Buffer): Promise<void> {
    const path = this.path(key);
    await mkdir(dirname(path), { recursive: true });
    // Write then rename: a reader never sees half a file.
    const tmp = `${path}.${randomBytes(6).toString('hex')}.tmp`;
    await writeFile(tmp, data);
    await rename(tmp, path);
  }

  /** Opens the file: its first bytes decide the content type, the rest is streamed from disk. */
  async open(key: string): Promise<OpenedObject | null> {
    let handle;
    try {
      handle = await open(this.path(key), 'r');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
    try {
      const { size } = await handle.stat();
      const head = Buffer.alloc(Math.min(12, size));
      await handle.read(head, 0, head.length, 0);
      const format = sniffImage(head);
      // The stream owns the handle from here on and closes it when it ends or is destroyed.
      const stream = handle.createReadStream({ start: 0, autoClose: true });
      return { stream, size, contentType: format ? TYPES[format] : 'application/octet-stream' };
    } catch (error) {
      await handle.close().catch(() => undefined);
      throw error;
    }
  }

  async exists(key: string): Promise<boolean> {
    try {
      return (await stat(this.path(key))).isFile();
    } catch {
      return false;
    }
  }

  async delete(key: string): Promise<void> {
    try {
      await unlink(this.path(key));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
}
