import { Body, Controller, Get, HttpCode, Param, Post, Put, Query, Res } from '@nestjs/common';
import { UploadRequest, type UploadResponse } from '@tiendita/contracts';
import { Caller, type CallerIdentity, Owner, type OwnerIdentity, parse } from '@tiendita/service-kit';
import type { FastifyReply } from 'fastify';
import { z } from 'zod';
import { type ReceivedUpload, Uploads } from '../application/uploads';

const VariantQuery = z.object({ w: z.coerce.number().int().positive().optional() });

/** Images are named by a fresh uuid and never change: browsers and CDNs may keep them for a year. */
const IMMUTABLE = 'public, max-age=31536000, immutable';

/**
 * POST /api/upload → { uploadUrl, fileName }; PUT the raw file to uploadUrl
 * (/api/upload/direct/{token}); the image is then at /temp-uploads/products/{fileName}
 * (also /objects/{fileName}), with WebP variants at ?w=160|320|400|640|800|1200.
 */
@Controller()
export class UploadsController {
  constructor(private readonly uploads: Uploads) {}

  @Post('api/upload')
  @HttpCode(200)
  create(@Owner() owner: OwnerIdentity, @Body() body: unknown): Promise<UploadResponse> {
    return this.uploads.createUpload(owner, parse(UploadRequest, body ?? {}));
  }

  @Put('api/upload/direct/:token')
  @HttpCode(200)
  receive(@Param('token') token: string, @Caller() caller: CallerIdentity, @Body() body: unknown): Promise<ReceivedUpload> {
    return this.uploads.receive(token, caller, body);
  }

  @Get('temp-uploads/products/:fileName')
  product(@Param('fileName') fileName: string, @Query() query: unknown, @Res() reply: FastifyReply): Promise<FastifyReply> {
    return this.send(fileName, query, reply);
  }

  @Get('objects/:fileName')
  object(@Param('fileName') fileName: string, @Query() query: unknown, @Res() reply: FastifyReply): Promise<FastifyReply> {
    return this.send(fileName, query, reply);
  }

  private async send(fileName: string, query: unknown, reply: FastifyReply): Promise<FastifyReply> {
    const { w } = parse(VariantQuery, query);
    const file = await this.uploads.read(fileName, w);
    // Streamed from storage: a 10 MB original is never held in memory whole.
    return reply.header('cache-control', IMMUTABLE).header('content-length', file.size).type(file.contentType).send(file.stream);
  }
}
