import { z } from 'zod';

/** The one error body every service and the gateway answer with. */
export const ErrorBody = z.object({
  message: z.string(),
  code: z.string(),
  details: z.record(z.string(), z.unknown()).optional(),
});
export type ErrorBody = z.infer<typeof ErrorBody>;

/** Error codes shared by the services, the gateway and the web client. */
export const ErrorCode = {
  validation: 'VALIDATION_ERROR',
  unauthorized: 'UNAUTHORIZED',
  forbidden: 'FORBIDDEN',
  notFound: 'NOT_FOUND',
  conflict: 'CONFLICT',
  concurrency: 'CONCURRENCY_CONFLICT',
  payloadTooLarge: 'PAYLOAD_TOO_LARGE',
  tooManyRequests: 'TOO_MANY_REQUESTS',
  methodNotAllowed: 'METHOD_NOT_ALLOWED',
  notAcceptable: 'NOT_ACCEPTABLE',
  requestTimeout: 'REQUEST_TIMEOUT',
  unsupportedMediaType: 'UNSUPPORTED_MEDIA_TYPE',
  internal: 'INTERNAL_ERROR',
  unavailable: 'SERVICE_UNAVAILABLE',
} as const;
export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];
