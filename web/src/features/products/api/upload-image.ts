import type { UploadResponse } from '@tiendita/contracts';
import { apiRequest } from '../../../lib/query-client';

/**
 * Where the uploaded file is served from, as spec 001 §7 says: /temp-uploads/products/{fileName} when
 * the upload went to the direct endpoint, else /objects/{fileName}.
 */
export function storedImagePath(upload: UploadResponse): string {
  return upload.uploadUrl.startsWith('/api/upload/direct/') ? `/temp-uploads/products/${upload.fileName}` : `/objects/${upload.fileName}`;
}

/** POST /api/upload {filename, contentType}, then PUT the file to uploadUrl; answers the stored path. */
export async function uploadImage(file: File): Promise<string> {
  const res = await apiRequest('POST', '/api/upload', { filename: file.name, contentType: file.type });
  const upload = (await res.json()) as UploadResponse;
  const put = await fetch(upload.uploadUrl, { method: 'PUT', body: file, headers: { 'Content-Type': file.type }, credentials: 'include' });
  if (!put.ok) throw new Error(`${put.status}: ${(await put.text()) || put.statusText}`);
  return storedImagePath(upload);
}
