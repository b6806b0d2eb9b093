import { Inject, Injectable } from '@nestjs/common';
import {
  type AiDescriptionLength,
  CatalogMessages,
  type CustomerResponseRequest,
  type CustomerResponseResponse,
  type EnhanceSearchResponse,
  type GenerateDescriptionRequest,
  type SocialCaptionRequest,
  SearchModelAnswer,
} from '@tiendita/contracts';
import { type AiClient, generateCaption, generateDescription, suggestCustomerResponse } from '@tiendita/ai';
import { NotFoundError } from '@tiendita/eventsourcing';
import { PG_POOL, SERVICE_CONFIG } from '@tiendita/service-kit';
import type { Pool } from 'pg';
import type { CatalogConfig } from '../config';
import { isUuid } from '../shared/sql';
import { AI_CLIENT } from './ai-client.provider';
import { SearchIndexCache, SUGGESTION_LIMIT, toSuggestion } from './search-index-cache';

interface StoreRow {
  name: string;
  subdomain: string;
  business_type: string;
  ai_description_length: AiDescriptionLength;
}

/** The AI helpers of the catalog: each answers from the model when it can, else from the store's own data. */
@Injectable()
export class AiHelpers {
  constructor(
    @Inject(PG_POOL) private readonly pool: Pool,
    @Inject(AI_CLIENT) private readonly ai: AiClient,
    @Inject(SERVICE_CONFIG) private readonly config: CatalogConfig,
    private readonly indexes: SearchIndexCache,
  ) {}

  private async store(storeId: string): Promise<StoreRow> {
    const r = await this.pool.query<StoreRow>({
      name: 'catalog_ai_store_row',
      text: 'SELECT name, subdomain, business_type, ai_description_length FROM catalog.stores WHERE id = $1',
      values: [storeId],
    });
    if (!r.rows[0]) throw new NotFoundError(CatalogMessages.storeNotFound);
    return r.rows[0];
  }

  /** POST /api/ai/generate-description: within the store's aiDescriptionLength. */
  async description(storeId: string, body: GenerateDescriptionRequest): Promise<{ description: string }> {
    const store = await this.store(storeId);
    const { description } = await generateDescription(this.ai, {
      productName: body.productName,
      category: body.category || undefined,
      price: body.price,
      businessType: store.business_type,
      storeName: store.name,
      length: store.ai_description_length,
    });
    return { description };
  }

  /** POST /api/ai/customer-response. */
  async customerResponse(storeId: string, body: CustomerResponseRequest): Promise<CustomerResponseResponse> {
    const store = await this.store(storeId);
    const { suggestedResponse, tone, category } = await suggestCustomerResponse(this.ai, { ...body, storeName: store.name });
    return { suggestedResponse, tone, category };
  }

  /** POST /api/ai/social-caption: the link is the store's (or its product's) public page, on PUBLIC_URL. */
  async caption(storeId: string, body: SocialCaptionRequest): Promise<{ caption: string }> {
    const store = await this.store(storeId);
    const base = this.config.PUBLIC_URL.replace(/\/+$/, '');
    let link = `${base}/${store.subdomain}`;
    let product: { name: string; description: string | null; price: number; finalPrice: number } | null = null;
    if (body.type === 'product') {
      const id = body.data.id ?? body.data.productId;
      if (id) {
        if (!isUuid(id)) throw new NotFoundError(CatalogMessages.productNotFound);
        const r = await this.pool.query<{ name: string; description: string | null; price: string; final: string }>({
          name: 'catalog_ai_caption_product',
          text: 'SELECT name, description, price_centavos AS price, final_price_centavos AS final FROM catalog.products WHERE id = $1 AND store_id = $2',
          values: [id, storeId],
        });
        const row = r.rows[0];
        if (!row) throw new NotFoundError(CatalogMessages.productNotFound);
        product = { name: row.name, description: row.description, price: Number(row.price) / 100, finalPrice: Number(row.final) / 100 };
        link = `${base}/${store.subdomain}/product/${id}`;
      } else if (body.data.name) {
        product = { name: body.data.name, description: body.data.description ?? null, price: body.data.price ?? 0, finalPrice: body.data.finalPrice ?? body.data.price ?? 0 };
      }
    }
    const { caption } = await generateCaption(this.ai, {
      type: product ? 'product' : 'store',
      platform: body.platform,
      storeName: store.name,
      businessType: store.business_type,
      link,
      productName: product?.name,
      description: product?.description ?? (body.type === 'store' ? body.data.description : undefined) ?? undefined,
      price: product && product.price > 0 ? product.price : undefined,
      finalPrice: product && product.finalPrice > 0 ? product.finalPrice : undefined,
    });
    return { caption };
  }

  /** POST /api/ai/enhance-search/{store}: the model may refine intent and terms; products always come from the store's index. */
  async enhanceSearch(store: string, query: string): Promise<EnhanceSearchResponse> {
    const storeId = await this.indexes.resolveStore(store);
    if (!storeId) throw new NotFoundError(CatalogMessages.storeNotFound);
    const index = await this.indexes.index(storeId);
    let extraTerms: string[] | undefined;
    let modelIntent: SearchModelAnswer['intent'] | undefined;
    if (this.ai.enabled) {
      const answer = await this.ai.json(
        SearchModelAnswer,
        'Interpretas búsquedas de compradores en tiendas pequeñas de Guatemala. Clasifica la intención (intent: specific_product, category, feature, price_range u other) ' +
          'y da hasta 6 términos de búsqueda en español que ayuden a encontrar productos (sinónimos, singular, corrección de errores). ' +
          'Responde solo con un objeto JSON {"intent": string, "enhancedTerms": string[]}.',
        JSON.stringify({ busqueda: query }),
        'enhance-search',
      );
      if (answer) {
        extraTerms = answer.enhancedTerms;
        modelIntent = answer.intent;
      }
    }
    const result = index.search(query, { limit: SUGGESTION_LIMIT, extraTerms });
    const suggestedProducts = result.hits.filter((h) => typeof h.payload === 'string').map((h) => toSuggestion(h.payload));
    const enhancedTerms = modelIntent ? [...new Set([...(extraTerms ?? []), ...result.enhancedTerms])].slice(0, 10) : result.enhancedTerms;
    return { intent: modelIntent ?? result.intent, enhancedTerms, suggestedProducts };
  }
}

