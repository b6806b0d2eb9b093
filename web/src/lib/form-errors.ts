/** The shape of a zod error that the forms read: each issue's field path and its message. */
interface IssueList {
  issues: readonly { path: readonly PropertyKey[]; message: string }[];
}

export type FieldErrors = Partial<Record<string, string>>;

/** The first message of each field, keyed by the top-level field name. */
export function firstErrorPerField(error: IssueList): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of error.issues) {
    const field = String(issue.path[0] ?? '');
    if (field && !errors[field]) errors[field] = issue.message;
  }
  return errors;
}

/** Moves keyboard focus to the first invalid control of a form, in document order. */
export function focusFirstInvalid(form: HTMLFormElement | null): void {
  requestAnimationFrame(() => form?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus());
}
