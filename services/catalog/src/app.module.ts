import { Module } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';
import { EventSourcingModule, SERVICE_CONFIG } from '@tiendita/service-kit';
import { join } from 'node:path';
import { aiClientProvider } from './ai/ai-client.provider';
import { AiHelpers } from './ai/ai-helpers';
import { AiController } from './ai/ai.controller';
import { SearchIndexCache } from './ai/search-index-cache';
import { SearchRateLimiter } from './ai/search-rate-limiter';
import { CategoryGuard } from './categories/application/category-guard';
import { CreateCategoryHandler } from './categories/application/create-category.handler';
import { ListCategoriesHandler } from './categories/application/list-categories.query';
import { CategoriesController } from './categories/http/categories.controller';
import type { CatalogConfig } from './config';
import { ProductImport } from './imports/application/product-import';
import { ProductImportController } from './imports/http/product-import.controller';
import { CreateProductHandler } from './products/application/create-product.handler';
import { DeleteProductHandler, SetProductActiveHandler } from './products/application/delete-product.handler';
import { GetProductHandler, PriceHistoryHandler } from './products/application/get-product.query';
import { ListProductsHandler } from './products/application/list-products.query';
import { ProductCommandRunner } from './products/application/product-command-runner';
import { ProductImages } from './products/application/product-images';
import { ProductReader } from './products/application/product-reader';
import { UpdateProductHandler } from './products/application/update-product.handler';
import { ProductsController } from './products/http/products.controller';
import { PreviewsController } from './previews/previews.controller';
import { PublicCatalog } from './public/application/public-catalog';
import { PublicController } from './public/http/public.controller';
import { RateLimiter } from './reviews/application/rate-limiter';
import {
  ListReviewsHandler,
  ModerateReviewHandler,
  SubmitCommentHandler,
  SubmitRatingHandler,
} from './reviews/application/review.handlers';
import { ReviewsController } from './reviews/http/reviews.controller';
import { DemoSeed } from './seed/demo-seed';
import { InventoryClient } from './shared/inventory-client';
import { CATALOG_SCHEMA, OBJECT_STORAGE } from './shared/tokens';
import { projections } from './projections';
import { UploadSweeper } from './uploads/application/upload-sweeper';
import { Uploads } from './uploads/application/uploads';
import { OwnedUploadsController } from './uploads/http/owned-uploads.controller';
import { UploadsController } from './uploads/http/uploads.controller';
import { LocalDiskStorage } from './uploads/storage/local-disk-storage';

/** Root module of the catalog service (GET /health comes from service-kit). */
@Module({
  imports: [CqrsModule.forRoot(), EventSourcingModule.forService({ schema: CATALOG_SCHEMA, projections })],
  // ReviewsController and ProductImportController before ProductsController: /api/products/reviews and
  // /api/products/import are not product ids.
  controllers: [ReviewsController, ProductImportController, ProductsController, CategoriesController, UploadsController, OwnedUploadsController, PublicController, PreviewsController, AiController],
  providers: [
    {
      provide: OBJECT_STORAGE,
      inject: [SERVICE_CONFIG],
      useFactory: (config: CatalogConfig) => new LocalDiskStorage(join(config.DATA_DIR, 'uploads')),
    },
    aiClientProvider,
    SearchIndexCache,
    SearchRateLimiter,
    AiHelpers,
    InventoryClient,
    CategoryGuard,
    ProductCommandRunner,
    ProductImages,
    ProductReader,
    ProductImport,
    PublicCatalog,
    RateLimiter,
    Uploads,
    UploadSweeper,
    DemoSeed,
    CreateCategoryHandler,
    ListCategoriesHandler,
    CreateProductHandler,
    UpdateProductHandler,
    DeleteProductHandler,
    SetProductActiveHandler,
    ListProductsHandler,
    GetProductHandler,
    PriceHistoryHandler,
    SubmitRatingHandler,
    SubmitCommentHandler,
    ModerateReviewHandler,
    ListReviewsHandler,
  ],
})
export class AppModule {}
