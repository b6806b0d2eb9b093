import type { FormInstance } from 'antd';
import { fieldErrorsOf } from './api';

/**
 * Puts the server's per-field messages of a failed call (ApiError.fieldErrors) under the fields of
 * an antd form that has them; answers whether any was shown. Fields the form does not have are left
 * to the toast, which shows the server's message.
 */
export function showServerFieldErrors(form: FormInstance, error: unknown): boolean {
  const fields = fieldErrorsOf(error);
  const known = Object.entries(fields).filter(([name]) => form.getFieldInstance(name) !== undefined || name in (form.getFieldsValue(true) as object));
  if (known.length === 0) return false;
  form.setFields(known.map(([name, message]) => ({ name, errors: [message] })));
  return true;
}
