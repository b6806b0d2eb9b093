import { Module } from '@nestjs/common';

/** Root module of the ordering service (GET /health comes from service-kit). */
@Module({})
export class AppModule {}
