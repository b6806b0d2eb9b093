import { Inject, Injectable, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { toCentavos } from '@tiendita/contracts';
import { type Decider, type DomainEvent, handleCommand, IllegalStateError, type PostgresEventStore } from '@tiendita/eventsourcing';
import { EVENT_STORE, PG_POOL, ProjectionHost, SERVICE_CONFIG, SERVICE_LOGGER, StartupWork } from '@tiendita/service-kit';
import { createHash } from 'node:crypto';
import type { Pool } from 'pg';
import type { Logger } from 'pino';
import sharp from 'sharp';
import { categoryDecider, categoryStreamId } from '../categories/domain/category.decider';
import type { CatalogConfig } from '../config';
import { productDecider } from '../products/domain/product.decider';
import { productStreamId } from '../products/domain/product.events';
import { reviewDecider, reviewStreamId } from '../reviews/domain/review.decider';
import { OBJECT_STORAGE } from '../shared/tokens';
import { imagePath, originalKey, Uploads } from '../uploads/application/uploads';
import type { ObjectStorage } from '../uploads/storage/object-storage';
import { DEMO_CATEGORIES, DEMO_COMMENTS, DEMO_PRODUCTS, DEMO_RATINGS, type DemoProduct } from './demo-products';

export const DEMO_SUBDOMAIN = 'demo';
const SEED_ACTOR = 'system';
/** How long the seed waits for identity's demo store to reach catalog's stores projection. */
const STORE_WAIT_MS = 10 * 60 * 1000;

/** A stable uuid (version-5 layout) from a name: the same demo object gets the same id on every run. */
export function seedId(name: string): string {
  const h = createHash('sha1').update(`tiendita-demo:${name}`).digest();
  h[6] = (h[6] & 0x0f) | 0x50;
  h[8] = (h[8] & 0x3f) | 0x80;
  const x = h.subarray(0, 16).toString('hex');
  return `${x.slice(0, 8)}-${x.slice(8, 12)}-${x.slice(12, 16)}-${x.slice(16, 20)}-${x.slice(20, 32)}`;
}

const escapeXml = (s: string) => s.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** A real product picture: a coloured card with the product's label and name, drawn by sharp from SVG. */
export async function demoPicture(product: Pick<DemoProduct, 'name' | 'label' | 'colors'>, variant: number, format: 'png' | 'webp'): Promise<Buffer> {
  const [bg, fg] = product.colors;
  // Bold DejaVu is about 0.68 em per capital: the label must fit inside the 460 px shape.
  const size = Math.min(150, Math.floor(380 / (0.68 * Math.max(1, product.label.length))));
  const shapes = [
    `<circle cx="400" cy="340" r="230" fill="${fg}" opacity="0.92"/>`,
    `<rect x="170" y="110" width="460" height="460" rx="60" fill="${fg}" opacity="0.92"/>`,
    `<ellipse cx="400" cy="340" rx="280" ry="200" fill="${fg}" opacity="0.92"/>`,
  ];
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="800" height="800" viewBox="0 0 800 800">
    <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${bg}"/><stop offset="1" stop-color="${bg}" stop-opacity="0.75"/></linearGradient></defs>
    <rect width="800" height="800" fill="url(#g)"/>
    ${shapes[variant % shapes.length]}
    <text x="400" y="${340 + size / 3}" font-family="DejaVu Sans, Liberation Sans, sans-serif" font-weight="bold" font-size="${size}" text-anchor="middle" fill="${bg}">${escapeXml(product.label)}</text>
    <text x="400" y="690" font-family="DejaVu Sans, Liberation Sans, sans-serif" font-size="44" text-anchor="middle" fill="${fg}">${escapeXml(product.name)}</text>
  </svg>`;
  const image = sharp(Buffer.from(svg));
  return format === 'png' ? image.png().toBuffer() : image.webp({ quality: 82, effort: 2 }).toBuffer();
}

async function runOnce<S, C, E extends DomainEvent>(store: PostgresEventStore, streamId: string, decider: Decider<S, C, E>, command: C, storeId: string) {
  try {
    await handleCommand(store, streamId, decider, command, { metadata: { storeId, actor: SEED_ACTOR } });
  } catch (error) {
    if (!(error instanceof IllegalStateError)) throw error; // already seeded
  }
}

/**
 * SEED_DEMO=1: gives the demo store (subdomain 'demo', created by identity's seed) categories,
 * ~30 products with generated pictures, varied stock and a few approved reviews. Idempotent:
 * every object has a stable id and is created only if missing. Runs in the background.
 */
@Injectable()
export class DemoSeed implements OnApplicationBootstrap, OnModuleDestroy {
  private stopped = false;
  /** Settles when the seed has finished (tests await it). */
  done: Promise<void> = Promise.resolve();

  constructor(
    @Inject(SERVICE_CONFIG) private readonly config: CatalogConfig,
    @Inject(PG_POOL) private readonly pool: Pool,
    @Inject(EVENT_STORE) private readonly store: PostgresEventStore,
    @Inject(OBJECT_STORAGE) private readonly storage: ObjectStorage,
    @Inject(SERVICE_LOGGER) private readonly logger: Logger,
    private readonly uploads: Uploads,
    private readonly readModels: ProjectionHost,
    private readonly startup: StartupWork,
  ) {}

  onApplicationBootstrap(): void {
    if (this.config.SEED_DEMO !== '1') return;
    this.done = this.run().catch((error: unknown) => {
      if (!this.stopped) this.logger.error({ err: error }, 'No se pudo sembrar la tienda demo');
    });
    this.startup.track(this.done);
  }

  onModuleDestroy(): void {
    this.stopped = true;
  }

  private async demoStoreId(): Promise<string | null> {
    const deadline = Date.now() + STORE_WAIT_MS;
    while (!this.stopped && Date.now() < deadline) {
      const r = await this.pool.query<{ id: string }>(`SELECT id FROM catalog.stores WHERE subdomain = $1`, [DEMO_SUBDOMAIN]);
      if (r.rows[0]) return r.rows[0].id;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    return null;
  }

  async run(): Promise<void> {
    const storeId = await this.demoStoreId();
    if (!storeId || this.stopped) return;
    const started = Date.now();
    for (const c of DEMO_CATEGORIES) {
      const categoryId = seedId(`${storeId}:category:${c.key}`);
      await runOnce(this.store, categoryStreamId(categoryId), categoryDecider, { type: 'CreateCategory', categoryId, storeId, name: c.name, description: c.description }, storeId);
    }
    // Pictures first, four at a time (sharp works on its own threads), then the products in order.
    const pictures = DEMO_PRODUCTS.flatMap((p, index) =>
      Array.from({ length: p.images ?? 1 }, (_, i) => {
        const format: 'png' | 'webp' = (index + i) % 3 === 0 ? 'webp' : 'png';
        return { product: p, i, format, fileName: `${seedId(`${storeId}:image:${p.key}:${i}`)}.${format}` };
      }),
    );
    for (let start = 0; start < pictures.length && !this.stopped; start += 4) {
      await Promise.all(
        pictures.slice(start, start + 4).map(async ({ product, i, format, fileName }) => {
          if (await this.storage.exists(originalKey(fileName))) return;
          await this.storage.put(originalKey(fileName), await demoPicture(product, i, format), `image/${format}`);
          await this.uploads.warmVariants(fileName);
        }),
      );
    }
    for (const p of DEMO_PRODUCTS) {
      if (this.stopped) return;
      const productId = seedId(`${storeId}:product:${p.key}`);
      const images = pictures.filter((x) => x.product === p).map((x) => imagePath(x.fileName));
      await runOnce(
        this.store,
        productStreamId(productId),
        productDecider,
        {
          type: 'CreateProduct',
          productId,
          storeId,
          actor: SEED_ACTOR,
          name: p.name,
          description: p.description,
          sku: p.sku,
          priceCentavos: toCentavos(p.price),
          discountPercentage: p.discount,
          categoryId: seedId(`${storeId}:category:${p.category}`),
          images,
          isActive: p.active ?? true,
          initialStock: p.stock,
        },
        storeId,
      );
    }
    const reviews = [
      ...DEMO_RATINGS.map((r) => ({ key: r.key, product: r.product, command: { type: 'SubmitRating' as const, rating: r.rating, comment: r.comment, customerName: r.customerName, customerEmail: null } })),
      ...DEMO_COMMENTS.map((c) => ({ key: c.key, product: c.product, command: { type: 'SubmitComment' as const, comment: c.comment, customerName: c.customerName, customerEmail: null, parentCommentId: null } })),
    ];
    for (const r of reviews) {
      const reviewId = seedId(`${storeId}:review:${r.key}`);
      const productId = seedId(`${storeId}:product:${r.product}`);
      await runOnce(this.store, reviewStreamId(reviewId), reviewDecider, { ...r.command, reviewId, productId, storeId }, storeId);
      await handleCommand(this.store, reviewStreamId(reviewId), reviewDecider, { type: 'ApproveReview', reviewId, storeId, actor: SEED_ACTOR }, { metadata: { storeId, actor: SEED_ACTOR } });
    }
    await this.readModels.caughtUp();
    this.logger.info({ storeId, products: DEMO_PRODUCTS.length, ms: Date.now() - started }, 'Tienda demo sembrada');
  }
}
