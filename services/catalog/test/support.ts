/* eslint-disable @typescript-eslint/no-explicit-any -- responses are read loosely in tests */
import { PostgresEventStore } from '@tiendita/eventsourcing';
import sharp from 'sharp';
import type { Stack, StackClient } from '../../../gateway/test/support/stack';

/** A real image of the given format, made by sharp. */
export function makeImage(format: 'png' | 'jpeg' | 'webp', width = 64, height = 48): Promise<Buffer> {
  const image = sharp({ create: { width, height, channels: 3, background: { r: 14, g: 165, b: 233 } } });
  return image.toFormat(format).toBuffer();
}

/** POST /api/upload then PUT the bytes to the one-time URL; answers both responses. */
export async function upload(client: StackClient, data: Buffer | string, contentType = 'image/png', filename = 'foto.png') {
  const ticket = await client.post('/api/upload', { filename, contentType });
  if (ticket.status !== 200) return { ticket, put: null as any };
  const put = await client.put(ticket.body.uploadUrl, typeof data === 'string' ? data : new Uint8Array(data), { 'content-type': contentType });
  return { ticket, put };
}

/** Uploads a real PNG and answers its stored path (/temp-uploads/products/{fileName}, spec §7). */
export async function uploadImage(client: StackClient): Promise<string> {
  const { ticket, put } = await upload(client, await makeImage('png'));
  if (put?.status !== 200) throw new Error(`subida falló: ${put?.status} ${put?.text}`);
  const uploadUrl: string = ticket.body.uploadUrl;
  return uploadUrl.startsWith('/api/upload/direct/') ? `/temp-uploads/products/${ticket.body.fileName}` : `/objects/${ticket.body.fileName}`;
}

/** Waits until catalog's copy of the stores (from identity's events) knows a new store. */
export async function waitForShop(client: StackClient, subdomain: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    if ((await client.get(`/api/public/categories/${subdomain}`)).status === 200) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`la tienda ${subdomain} no llegó al catálogo`);
}

/**
 * Deactivates a store the way identity's settings will: an event on the store's stream carrying
 * isActive (identity has no such command yet; catalog's stores projection reads any store event
 * with the copied fields). Written straight into identity's event store, as identity would.
 */
export async function setStoreActive(stack: Stack, storeId: string, isActive: boolean): Promise<void> {
  const store = new PostgresEventStore(stack.pool, 'identity');
  await store.append(`store-${storeId}`, [{ type: 'StoreUpdated', data: { storeId, changes: { isActive }, updatedAt: new Date().toISOString() } }], 'any', { storeId });
}

/** Calls `probe` until `done` accepts its answer (for another service's read model), for at most 10 s. */
export async function eventually<T>(probe: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const value = await probe();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((r) => setTimeout(r, 50));
  }
}
