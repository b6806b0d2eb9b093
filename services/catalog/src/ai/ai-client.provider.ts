import type { Provider } from '@nestjs/common';
import { AiClient } from '@tiendita/ai';
import { SERVICE_CONFIG, SERVICE_LOGGER } from '@tiendita/service-kit';
import type { Logger } from 'pino';
import type { CatalogConfig } from '../config';

export const AI_CLIENT = Symbol('AI_CLIENT');

/** The model client, from OPENAI_API_KEY / OPENAI_BASE_URL / OPENAI_MODEL / AI_TIMEOUT_MS. */
export const aiClientProvider: Provider = {
  provide: AI_CLIENT,
  inject: [SERVICE_CONFIG, SERVICE_LOGGER],
  useFactory: (config: CatalogConfig, logger: Logger) =>
    new AiClient(
      { apiKey: config.OPENAI_API_KEY?.trim() || undefined, baseURL: config.OPENAI_BASE_URL, model: config.OPENAI_MODEL, timeoutMs: config.AI_TIMEOUT_MS },
      logger,
    ),
};
