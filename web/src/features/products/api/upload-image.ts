import type { UploadResponse } from '@tiendita/contracts';
import { apiFetch, apiJson } from '../../../lib/api';

/**
 * Where the uploaded file is served from, as spec 001 §7 says: /temp-uploads/products/{fileName} when
 * the upload went to the direct endpoint, else /objects/{fileName}.
 */
export function storedImagePath(upload: UploadResponse): string {
  return upload.uploadUrl.startsWith('/api/upload/direct/') ? `/temp-uploads/products/${upload.fileName}` : `/objects/${upload.fileName}`;
}

/** POST /api/upload {filename, contentType}, then PUT the file to uploadUrl; answers the stored path. */
export async function uploadImage(file: File): Promise<string> {
  const upload = await apiJson<UploadResponse>('POST', '/api/upload', { json: { filename: file.name, contentType: file.type } });
  await apiFetch('PUT', upload.uploadUrl, { raw: file, contentType: file.type });
  return storedImagePath(upload);
}
