import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ValidationError } from '@tiendita/eventsourcing';
import { Owner, type OwnerIdentity, parse } from '@tiendita/service-kit';
import { z } from 'zod';
import { ProductImages } from '../../products/application/product-images';

const OwnedUploadsRequest = z.object({ paths: z.array(z.string().max(300)).min(1).max(10) });

/**
 * Internal (signed; the gateway does not route /internal): whether every path names an image the
 * caller's store uploaded, by the same rule as product images (ProductImages.assertOwned). Identity
 * asks it before a store takes an image as its logo.
 */
@Controller('internal/uploads')
export class OwnedUploadsController {
  constructor(private readonly images: ProductImages) {}

  @Post('owned')
  @HttpCode(200)
  async owned(@Owner() owner: OwnerIdentity, @Body() body: unknown): Promise<{ owned: boolean }> {
    const { paths } = parse(OwnedUploadsRequest, body ?? {});
    try {
      await this.images.assertOwned(owner.storeId, paths);
      return { owned: true };
    } catch (error) {
      if (error instanceof ValidationError) return { owned: false };
      throw error;
    }
  }
}
