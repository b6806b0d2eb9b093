import { Body, Controller, Headers, HttpCode, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { AuthMessages, ChangePasswordRequest, ForgotPasswordRequest, LoginRequest, RegisterRequest, ResetPasswordRequest, type CurrentUser } from '@tiendita/contracts';
import { Owner, parse, type OwnerIdentity } from '@tiendita/service-kit';
import { ChangePasswordCommand } from '../application/change-password.command';
import { LogInCommand } from '../application/log-in.command';
import { RegisterOwnerCommand, type RegisterOwnerResult } from '../application/register-owner.command';
import { RequestPasswordResetCommand } from '../application/request-password-reset.command';
import { ResetPasswordCommand } from '../application/reset-password.command';

/**
 * Calls only the gateway makes (signed, like every route here): it owns /api/auth/register,
 * login, forgot-password and reset-password, applies its rate limits and CSRF check, then calls these.
 */
@Controller('internal/auth')
export class InternalAuthController {
  constructor(private readonly commands: CommandBus) {}

  @Post('register')
  @HttpCode(201)
  register(@Body() body: unknown, @Headers('x-request-id') requestId?: string): Promise<RegisterOwnerResult> {
    return this.commands.execute(new RegisterOwnerCommand(parse(RegisterRequest, body), requestId ?? null));
  }

  /** passport-local's check: 200 with the user, or 401 'Email o contraseña incorrectos'. */
  @Post('verify')
  @HttpCode(200)
  verify(@Body() body: unknown, @Headers('x-request-id') requestId?: string): Promise<CurrentUser> {
    const { email, password } = parse(LoginRequest, body);
    return this.commands.execute(new LogInCommand(email, password, requestId ?? null));
  }

  /** Answers at once, known e-mail or not; the link (built from PUBLIC_URL) is mailed afterwards. */
  @Post('forgot-password')
  @HttpCode(200)
  async forgotPassword(@Body() body: unknown, @Headers('x-request-id') requestId?: string): Promise<{ message: string }> {
    const { email } = parse(ForgotPasswordRequest, body);
    await this.commands.execute(new RequestPasswordResetCommand(email, requestId ?? null));
    return { message: AuthMessages.forgotPasswordSent };
  }

  @Post('reset-password')
  @HttpCode(200)
  resetPassword(@Body() body: unknown, @Headers('x-request-id') requestId?: string): Promise<{ userId: string }> {
    const { token, password } = parse(ResetPasswordRequest, body);
    return this.commands.execute(new ResetPasswordCommand(token, password, requestId ?? null));
  }

  /** The profile page's change, signed with the session's owner; the gateway then ends the other sessions. */
  @Post('change-password')
  @HttpCode(200)
  changePassword(@Owner() owner: OwnerIdentity, @Body() body: unknown, @Headers('x-request-id') requestId?: string): Promise<{ userId: string }> {
    const { currentPassword, newPassword } = parse(ChangePasswordRequest, body);
    return this.commands.execute(new ChangePasswordCommand(owner.userId, owner.storeId, currentPassword, newPassword, requestId ?? null));
  }
}
