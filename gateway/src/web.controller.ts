import { Controller, Get, Inject, type OnModuleDestroy, Req, Res } from '@nestjs/common';
import { NotFoundError, SERVICE_CONFIG } from '@tiendita/service-kit';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import type { GatewayConfig } from './config';
import { FIRST_SCREEN_STYLE, injectFirstScreen, injectPreview, LinkPreviews, previewTarget, renderFirstScreen, renderPreview, renderShopHints, ShopAssets, takeAppScripts } from './og';

const MISSING_BUILD = `<!doctype html>
<html lang="es-GT"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Tiendita</title></head>
<body style="font-family: system-ui, sans-serif; max-width: 36rem; margin: 4rem auto; padding: 0 1rem">
<h1>Falta la compilación web</h1>
<p>No se encontró <code>web/dist</code>. Ejecuta <code>npm run build</code> (o <code>npm start</code>, que compila lo que falte) y recarga esta página.</p>
</body></html>`;

/**
 * The web build: files by name, and index.html for every other GET outside /api, so client
 * routes (/dashboard, /demo/productos/…) load the single-page app.
 */
@Controller()
export class WebController implements OnModuleDestroy {
  private readonly indexFile: string;
  private readonly previews: LinkPreviews;
  private readonly shopAssets: ShopAssets;
  private readonly publicUrl: string;

  constructor(@Inject(SERVICE_CONFIG) config: GatewayConfig) {
    this.indexFile = join(config.WEB_DIST_DIR, 'index.html');
    this.previews = new LinkPreviews({ catalogUrl: config.CATALOG_URL, identityUrl: config.IDENTITY_URL, internalSecret: config.INTERNAL_SECRET });
    this.shopAssets = new ShopAssets(config.WEB_DIST_DIR);
    this.publicUrl = config.PUBLIC_URL;
  }

  async onModuleDestroy(): Promise<void> {
    await this.previews.close();
  }

  @Get('*')
  async page(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    const path = request.url.split('?')[0];
    if (path === '/api' || path.startsWith('/api/')) throw new NotFoundError('Ruta no encontrada');
    // A name with an extension is a file of the build (a missing one is a 404, never index.html).
    if (/\.[A-Za-z0-9]+$/.test(path)) {
      if (typeof reply.sendFile !== 'function') throw new NotFoundError('Ruta no encontrada');
      let file: string;
      try {
        file = decodeURIComponent(path);
      } catch {
        throw new NotFoundError('Ruta no encontrada');
      }
      reply.sendFile(file.replace(/^\/+/, ''));
      return;
    }
    // A shop's old subdomain (changed less than 90 days ago): a permanent redirect to the new one.
    const moved = await this.previews.redirectFor(request.url);
    if (moved) {
      reply.redirect(moved, 301);
      return;
    }
    reply.header('cache-control', 'no-cache').header('vary', 'accept-encoding').type('text/html; charset=utf-8');
    if (!existsSync(this.indexFile)) {
      reply.status(503).send(MISSING_BUILD);
      return;
    }
    // Read per request: a rebuild shows up without restarting the gateway.
    // Shop and product pages carry their link preview (Open Graph tags, see og/), the hints that
    // fetch their first screen along with the app (the shop chunk, its stylesheet, the first pictures)
    // and that first screen itself as HTML, which the app replaces once it has rendered the page.
    const html = readFileSync(this.indexFile, 'utf8');
    const preview = await this.previews.lookup(request.url);
    const target = previewTarget(request.url);
    if (!preview || !target) {
      sendHtml(request, reply, html);
      return;
    }
    const files = this.shopAssets.files();
    const rendered = renderPreview(preview, this.publicUrl, request.url);
    // The first screen needs the shop's stylesheet in the head (no build manifest: it would show unstyled).
    const taken = files.styles.length > 0 ? takeAppScripts(html) : null;
    const app = taken ? { entry: taken.app.entry, modules: [...taken.app.modules, ...files.scripts] } : undefined;
    const firstScreen = files.styles.length > 0 ? renderFirstScreen(preview, target, this.publicUrl, app) : null;
    if (!firstScreen) {
      sendHtml(request, reply, injectPreview(html, rendered, renderShopHints(files, preview)));
      return;
    }
    // The app's scripts wait for the first screen's paint (shop-boot.js asks for them): no modulepreloads in the head.
    const head = `${renderShopHints(taken ? { ...files, scripts: [] } : files, preview)}\n    ${FIRST_SCREEN_STYLE}`;
    sendHtml(request, reply, injectFirstScreen(injectPreview(taken ? taken.html : html, rendered, head), firstScreen));
  }
}

/**
 * The page compressed as the browser accepts (brotli, else gzip): a shop page with its first screen
 * is some 13 KB of HTML, about 3 KB compressed, and on a phone's network the bytes of the document
 * come before everything else. A fast brotli level: it is compressed on every request (< 1 ms).
 */
function sendHtml(request: FastifyRequest, reply: FastifyReply, html: string): void {
  const accepted = String(request.headers['accept-encoding'] ?? '');
  if (/\bbr\b/.test(accepted)) {
    reply.header('content-encoding', 'br').send(brotliCompressSync(html, { params: { [zlib.BROTLI_PARAM_QUALITY]: 5, [zlib.BROTLI_PARAM_SIZE_HINT]: Buffer.byteLength(html) } }));
  } else if (/\bgzip\b/.test(accepted)) {
    reply.header('content-encoding', 'gzip').send(gzipSync(html));
  } else {
    reply.send(html);
  }
}
