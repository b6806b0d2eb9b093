import { Inject, Injectable } from '@nestjs/common';
import { FEL_CREDENTIAL_FIELDS, type FelCertifier, FelMessages, type FelSettingsView, type IsrRegime, type UpdateFelSettingsRequest } from '@tiendita/contracts';
import { ValidationError } from '@tiendita/eventsourcing';
import { PG_POOL, SERVICE_CONFIG } from '@tiendita/service-kit';
import type { Pool, PoolClient } from 'pg';
import type { FelConfig } from '../config';
import type { DteIssuer } from '../documents/dte-xml';
import { CredentialsCipher } from './credentials-cipher';

interface SettingsRow {
  enabled: boolean;
  issuer_nit: string | null;
  legal_name: string | null;
  commercial_name: string | null;
  establishment_code: number;
  address: string;
  municipality: string;
  department: string;
  postal_code: string;
  email: string | null;
  isr_regime: IsrRegime;
  certifier: FelCertifier;
  environment: 'pruebas' | 'produccion';
  credentials: string | null;
}

/** A store's FEL settings as the outbox uses them (credentials decrypted). */
export interface StoreFel {
  enabled: boolean;
  issuer: DteIssuer | null;
  regime: 'GEN' | 'PEQ';
  isrRegime: IsrRegime;
  certifier: FelCertifier;
  credentials: Record<string, string>;
}

const DEFAULTS: SettingsRow = {
  enabled: false,
  issuer_nit: null,
  legal_name: null,
  commercial_name: null,
  establishment_code: 1,
  address: 'Ciudad',
  municipality: 'Guatemala',
  department: 'Guatemala',
  postal_code: '01001',
  email: null,
  isr_regime: 'trimestral',
  certifier: 'pruebas',
  environment: 'pruebas',
  credentials: null,
};

const COLUMNS: Record<string, keyof SettingsRow> = {
  enabled: 'enabled',
  issuerNit: 'issuer_nit',
  legalName: 'legal_name',
  commercialName: 'commercial_name',
  establishmentCode: 'establishment_code',
  address: 'address',
  municipality: 'municipality',
  department: 'department',
  postalCode: 'postal_code',
  email: 'email',
  isrRegime: 'isr_regime',
  certifier: 'certifier',
  environment: 'environment',
};

/** GET/PUT /api/fel/settings and what the outbox reads of them. */
@Injectable()
export class FelSettingsService {
  private readonly cipher: CredentialsCipher;

  constructor(
    @Inject(PG_POOL) private readonly pool: Pool,
    @Inject(SERVICE_CONFIG) config: FelConfig,
  ) {
    this.cipher = new CredentialsCipher(config.INTERNAL_SECRET);
  }

  private async row(storeId: string, db: Pool | PoolClient = this.pool): Promise<{ row: SettingsRow; regime: 'GEN' | 'PEQ' }> {
    const r = await db.query<SettingsRow & { regime: string | null }>(
      `SELECT s.*, r.regime FROM (SELECT $1::uuid AS store_id) k LEFT JOIN fel.settings s ON s.store_id = k.store_id LEFT JOIN fel.store_regimes r ON r.store_id = k.store_id`,
      [storeId],
    );
    const found = r.rows[0];
    const row = found && found.enabled !== null ? found : { ...DEFAULTS };
    return { row, regime: found?.regime === 'pequeno_contribuyente' ? 'PEQ' : 'GEN' };
  }

  async view(storeId: string): Promise<FelSettingsView> {
    const { row, regime } = await this.row(storeId);
    const creds = this.cipher.decrypt(row.credentials);
    return {
      enabled: row.enabled,
      issuerNit: row.issuer_nit,
      legalName: row.legal_name,
      commercialName: row.commercial_name,
      establishmentCode: row.establishment_code,
      address: row.address,
      municipality: row.municipality,
      department: row.department,
      postalCode: row.postal_code,
      email: row.email,
      ivaAffiliation: regime,
      isrRegime: row.isr_regime,
      certifier: row.certifier,
      environment: row.environment,
      credentials: Object.fromEntries(FEL_CREDENTIAL_FIELDS.map((f) => [f, Boolean(creds[f])])) as FelSettingsView['credentials'],
    };
  }

  async update(storeId: string, body: UpdateFelSettingsRequest): Promise<FelSettingsView> {
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      await client.query('INSERT INTO fel.settings (store_id) VALUES ($1) ON CONFLICT DO NOTHING', [storeId]);
      const current = (await client.query<SettingsRow>('SELECT * FROM fel.settings WHERE store_id = $1 FOR UPDATE', [storeId])).rows[0];
      const next: SettingsRow = { ...current };
      for (const [field, column] of Object.entries(COLUMNS)) {
        const value = (body as Record<string, unknown>)[field];
        if (value !== undefined) (next as unknown as Record<string, unknown>)[column] = value;
      }
      if (body.credentials) {
        const creds = this.cipher.decrypt(current.credentials);
        for (const f of FEL_CREDENTIAL_FIELDS) {
          const v = body.credentials[f];
          if (v === undefined) continue;
          if (v === null || v.trim() === '') delete creds[f];
          else creds[f] = v.trim();
        }
        next.credentials = Object.keys(creds).length ? this.cipher.encrypt(creds) : null;
      }
      if (next.enabled && (!next.issuer_nit || !next.legal_name || !next.commercial_name)) throw new ValidationError(FelMessages.incomplete);
      if (next.enabled && next.certifier === 'infile' && !(this.cipher.decrypt(next.credentials).apiUser && this.cipher.decrypt(next.credentials).apiKey)) {
        throw new ValidationError('Para usar INFILE escribe el usuario y la llave de la API (y los de la firma).');
      }
      const columns = [...Object.values(COLUMNS), 'credentials'] as (keyof SettingsRow)[];
      await client.query(
        `UPDATE fel.settings SET ${columns.map((c, i) => `${c} = $${i + 2}`).join(', ')}, updated_at = now() WHERE store_id = $1`,
        [storeId, ...columns.map((c) => next[c])],
      );
      await client.query('COMMIT');
    } catch (err) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw err;
    } finally {
      client.release();
    }
    return this.view(storeId);
  }

  /** What the outbox and the reaction need of a store's settings. */
  async forIssuing(storeId: string, db: Pool | PoolClient = this.pool): Promise<StoreFel> {
    const { row, regime } = await this.row(storeId, db);
    const issuer: DteIssuer | null =
      row.issuer_nit && row.legal_name && row.commercial_name
        ? {
            nit: row.issuer_nit,
            legalName: row.legal_name,
            commercialName: row.commercial_name,
            establishmentCode: row.establishment_code,
            email: row.email,
            address: row.address,
            postalCode: row.postal_code,
            municipality: row.municipality,
            department: row.department,
          }
        : null;
    return { enabled: row.enabled && issuer !== null, issuer, regime, isrRegime: row.isr_regime, certifier: row.certifier, credentials: this.cipher.decrypt(row.credentials) };
  }
}
