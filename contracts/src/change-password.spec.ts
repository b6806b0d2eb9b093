import { AuthMessages, ChangePasswordForm, ChangePasswordRequest } from './auth';

/** The first message of each field, as the page shows it. */
const messages = (input: unknown) => {
  const parsed = ChangePasswordForm.safeParse(input);
  const first: Record<string, string> = {};
  for (const issue of parsed.success ? [] : parsed.error.issues) first[String(issue.path[0])] ??= issue.message;
  return first;
};

describe('ChangePasswordForm (the profile page)', () => {
  it('accepts a current password and a new one with the reset rules, confirmed', () => {
    expect(ChangePasswordForm.safeParse({ currentPassword: 'x', newPassword: 'Nueva1234', confirmPassword: 'Nueva1234' }).success).toBe(true);
  });

  it('gives each field its Spanish message, the mismatch too while another field is still wrong', () => {
    expect(messages({ currentPassword: '', newPassword: 'abc', confirmPassword: 'xyz' })).toEqual({
      currentPassword: AuthMessages.passwordRequired,
      newPassword: AuthMessages.passwordMin,
      confirmPassword: AuthMessages.passwordsDiffer,
    });
    expect(messages({ currentPassword: 'x', newPassword: 'nueva1234', confirmPassword: '' })).toEqual({
      newPassword: AuthMessages.passwordUppercase,
      confirmPassword: AuthMessages.confirmRequired,
    });
  });

  it('the request itself carries no confirmation', () => {
    expect(ChangePasswordRequest.parse({ currentPassword: 'x', newPassword: 'Nueva1234', confirmPassword: 'y' })).toEqual({ currentPassword: 'x', newPassword: 'Nueva1234' });
  });
});
