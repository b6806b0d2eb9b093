import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ReserveStockRequest, type ReserveStockResponse } from '@tiendita/contracts';
import { Owner, type OwnerIdentity, parse } from '@tiendita/service-kit';
import { ReservationsService } from '../application/reservations.service';

/** POST /internal/reservations (signed; ordering calls it with the store as caller). */
@Controller('internal/reservations')
export class ReservationsController {
  constructor(private readonly reservations: ReservationsService) {}

  @Post()
  @HttpCode(200)
  reserve(@Owner() owner: OwnerIdentity, @Body() body: unknown): Promise<ReserveStockResponse> {
    return this.reservations.reserve(owner, parse(ReserveStockRequest, body ?? {}));
  }
}
