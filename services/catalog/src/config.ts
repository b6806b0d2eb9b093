import { portVariable, type ServiceConfig, urlVariable } from '@tiendita/service-kit';
import { z } from 'zod';

const emptyToUndefined = (v: unknown) => (v === '' ? undefined : v);

/** Environment of the catalog service: the service-kit base variables, on port 3002 by default. */
export const catalogConfigShape = {
  PORT: portVariable(3002),
  /** Inventory's internal command (the product form's stock edit) goes here, signed. */
  INVENTORY_URL: urlVariable().default('http://127.0.0.1:3004'),
  /** '1' seeds the demo store (subdomain 'demo') with categories, products and images. */
  SEED_DEMO: z.enum(['0', '1']).default('0'),
  /** Ratings plus comments one IP may submit per window (public write calls). */
  REVIEW_RATE_LIMIT: z.coerce.number().int().min(1).default(30),
  REVIEW_RATE_WINDOW_SECONDS: z.coerce.number().int().min(1).default(600),
  /** Upload URLs one store may ask for per window (POST /api/upload), against bursts. */
  UPLOAD_RATE_LIMIT: z.coerce.number().int().min(1).default(30),
  UPLOAD_RATE_WINDOW_SECONDS: z.coerce.number().int().min(1).default(60),
  /** Upload URLs one store may ask for in any hour. */
  UPLOAD_MAX_PER_HOUR: z.coerce.number().int().min(1).default(200),
  /** Bytes of images one store may upload in any 24 hours (default 500 MB). */
  UPLOAD_MAX_BYTES_PER_DAY: z.coerce.number().int().min(1).default(500 * 1024 * 1024),
  /** Import previews (POST /api/products/import/preview) one store may ask for per window: each reads a file of up to 10 MB. */
  IMPORT_PREVIEW_RATE_LIMIT: z.coerce.number().int().min(1).default(20),
  IMPORT_PREVIEW_RATE_WINDOW_SECONDS: z.coerce.number().int().min(1).default(600),
  /** AI helpers (libs/ai): without OPENAI_API_KEY every helper answers with its fallback. */
  OPENAI_API_KEY: z.string().optional(),
  /** Any OpenAI-compatible server (e.g. a local one: http://127.0.0.1:11434/v1). */
  OPENAI_BASE_URL: z.preprocess(emptyToUndefined, urlVariable().optional()),
  OPENAI_MODEL: z.string().min(1).default('gpt-4o-mini'),
  /** Longest wait for a model answer before falling back. */
  AI_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(4000),
  /** Public AI searches one address may make per window. */
  AI_SEARCH_RATE_LIMIT: z.coerce.number().int().min(1).default(60),
  AI_SEARCH_RATE_WINDOW_SECONDS: z.coerce.number().int().min(1).default(60),
  /** The site's public address, the base of the links in social captions: required, never a request's host. */
  PUBLIC_URL: urlVariable(),
};
export type CatalogConfig = ServiceConfig<typeof catalogConfigShape>;
