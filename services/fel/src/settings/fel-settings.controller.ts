import { Body, Controller, Get, Put } from '@nestjs/common';
import { type FelSettingsView, UpdateFelSettingsRequest } from '@tiendita/contracts';
import { Owner, type OwnerIdentity, parse } from '@tiendita/service-kit';
import { FelSettingsService } from './fel-settings.service';

/** GET/PUT /api/fel/settings: the store's FEL settings (credentials only as set or not). */
@Controller('api/fel/settings')
export class FelSettingsController {
  constructor(private readonly settings: FelSettingsService) {}

  @Get()
  get(@Owner() owner: OwnerIdentity): Promise<FelSettingsView> {
    return this.settings.view(owner.storeId);
  }

  @Put()
  put(@Owner() owner: OwnerIdentity, @Body() body: unknown): Promise<FelSettingsView> {
    return this.settings.update(owner.storeId, parse(UpdateFelSettingsRequest, body ?? {}));
  }
}
