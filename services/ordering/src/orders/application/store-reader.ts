import { Inject, Injectable } from '@nestjs/common';
import { isUuid } from '@tiendita/contracts';
import { PG_POOL } from '@tiendita/service-kit';
import type { Pool } from 'pg';
import type { StoreSnapshot } from '../domain/order.decider';
import { DEFAULT_TAX_RATE, type ProductRow } from './pricing';

/** A store as ordering's copy of identity's events has it (ordering.stores). */
export interface StoreRow {
  id: string;
  subdomain: string;
  name: string;
  address: string | null;
  phone: string | null;
  whatsapp_number: string | null;
  is_active: boolean;
  allow_online_orders: boolean;
  require_customer_info: boolean;
  logo_url: string | null;
  tax_rate: string;
  receipt_header: string | null;
  receipt_footer: string | null;
}

export type CatalogProduct = ProductRow & { deleted: boolean };

/** The store's settings an order is decided with. */
export function storeSnapshot(store: StoreRow | null): StoreSnapshot | null {
  if (!store) return null;
  return {
    id: store.id,
    isActive: store.is_active,
    allowOnlineOrders: store.allow_online_orders,
    whatsappNumber: store.whatsapp_number,
    requireCustomerInfo: store.require_customer_info,
    taxRate: Number(store.tax_rate ?? DEFAULT_TAX_RATE),
  };
}

/** Reads ordering's copies of stores and products (what a checkout prices and checks against). */
@Injectable()
export class StoreReader {
  constructor(@Inject(PG_POOL) private readonly pool: Pool) {}

  /**
   * The store (by id or subdomain) and the cart's products, in one round trip (one prepared
   * statement each way): what a checkout reads before it reserves.
   */
  async checkoutSources(param: string, productIds: readonly string[]): Promise<{ store: StoreRow | null; products: CatalogProduct[] }> {
    const ids = productIds.filter(isUuid);
    const byId = isUuid(param);
    const r = await this.pool.query<{ store: StoreRow | null; products: CatalogProduct[] | null }>({
      name: byId ? 'ordering_checkout_by_id' : 'ordering_checkout_by_subdomain',
      text: `SELECT (SELECT row_to_json(s) FROM ordering.stores s WHERE ${byId ? 's.id = $1::uuid' : 's.subdomain = $1 ORDER BY s.is_active DESC LIMIT 1'}) AS store,
                    (SELECT json_agg(p) FROM ordering.products p WHERE p.id = ANY($2::uuid[])) AS products`,
      values: [byId ? param : param.toLowerCase(), ids],
    });
    return { store: r.rows[0].store, products: r.rows[0].products ?? [] };
  }

  async findStore(param: string): Promise<StoreRow | null> {
    const r = isUuid(param)
      ? await this.pool.query<StoreRow>(`SELECT * FROM ordering.stores WHERE id = $1`, [param])
      : await this.pool.query<StoreRow>(`SELECT * FROM ordering.stores WHERE subdomain = $1 ORDER BY is_active DESC LIMIT 1`, [param.toLowerCase()]);
    return r.rows[0] ?? null;
  }
}
