import { Module } from '@nestjs/common';

/** Root module of the identity service (GET /health comes from service-kit). */
@Module({})
export class AppModule {}
