/** Any RFC 4122 UUID (the ids of every aggregate), case-insensitive. */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether a string is a UUID: the one check, before an id reaches SQL as uuid. */
export function isUuid(value: string): boolean {
  return UUID.test(value);
}
