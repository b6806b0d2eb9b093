/** Kept so older imports still work: the API error type and its helpers live in ./api. */
export { ApiError, type ApiErrorInfo, fieldErrorsOf, readApiError, serverMessageOr } from './api';
