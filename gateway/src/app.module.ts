import { Module } from '@nestjs/common';
import { WebController } from './web.controller';

/** Root module of the gateway: the web build now; /api routing comes with the features. */
@Module({ controllers: [WebController] })
export class AppModule {}
