import {
  AuthMessages,
  RESERVED_SUBDOMAINS,
  STORE_DEFAULTS,
  STORE_SETTINGS_DEFAULTS,
  SettingsMessages,
  TAX_REGIME_INFO,
  taxRegimeOfRate,
  type BusinessType,
  type StoreChanges,
  type StoreCreated,
  type StoreEvent,
  type StoreSettingsChanges,
  type StoreSettingsCreated,
  type TaxRegime,
  type UpdateStoreRequest,
  type UpdateStoreSettingsRequest,
} from '@tiendita/contracts';
import { assertNever, IllegalStateError, NotFoundError, ValidationError, type Decider } from '@tiendita/eventsourcing';

/** The store's editable fields as they stand, by their StoreView names. */
export type StoreFields = Required<StoreChanges>;
export type SettingsFields = {
  settingsId: string;
  taxRate: number;
  currency: string;
  printReceipts: boolean;
  receiptHeader: string | null;
  receiptFooter: string | null;
  kashEnabled: boolean;
  zigiEnabled: boolean;
  taxRegime: TaxRegime;
  /** Limits on public orders: absent until the owner first sets them. */
  orderMaxUnitsPerLine?: number;
  orderMaxUnitsPerOrder?: number;
  orderHoldHours?: number;
  blockedPhones?: string[];
  /** Card sales while the POS is offline: absent until the owner chooses (OFFLINE_CARD_PAYMENTS_DEFAULT). */
  offlineCardPayments?: 'refuse' | 'pending';
};

export type StoreState =
  | { status: 'none' }
  | { status: 'created'; storeId: string; ownerId: string; subdomain: string; isActive: boolean; settingsId: string | null; fields: StoreFields; settings: SettingsFields | null };

export type CreateStore = {
  type: 'CreateStore';
  data: {
    storeId: string;
    ownerId: string;
    settingsId: string;
    name: string;
    subdomain: string;
    businessType: BusinessType;
    description?: string | null;
    phone?: string | null;
    email?: string | null;
    address?: string | null;
    department: string;
    website?: string | null;
    whatsappNumber?: string | null;
    businessHours?: string | null;
    now: string;
  };
};
/** PUT /api/store/{id}: the fields sent; only those that differ become the event's changes. */
export type UpdateStore = { type: 'UpdateStore'; data: { storeId: string; ownerId: string; changes: UpdateStoreRequest; now: string } };
/** PUT /api/store/settings. */
export type UpdateStoreSettings = { type: 'UpdateStoreSettings'; data: { storeId: string; changes: UpdateStoreSettingsRequest; now: string } };
/** POST /api/store: the settings record for a store that has none yet (409 otherwise). */
export type CreateStoreSettings = {
  type: 'CreateStoreSettings';
  data: { storeId: string; ownerId: string; settingsId: string; store: UpdateStoreRequest; settings: UpdateStoreSettingsRequest; now: string };
};
export type StoreCommand = CreateStore | UpdateStore | UpdateStoreSettings | CreateStoreSettings;

const reserved: ReadonlySet<string> = new Set(RESERVED_SUBDOMAINS);

/** A subdomain that would shadow an owner route, an API path or a public route. */
export function isReservedSubdomain(subdomain: string): boolean {
  return reserved.has(subdomain.toLowerCase());
}

export const initialStoreState = (): StoreState => ({ status: 'none' });

export function evolveStore(state: StoreState, event: StoreEvent): StoreState {
  switch (event.type) {
    case 'StoreCreated': {
      const { storeId, ownerId, createdAt: _createdAt, ...fields } = event.data;
      return { status: 'created', storeId, ownerId, subdomain: fields.subdomain, isActive: fields.isActive, settingsId: null, fields, settings: null };
    }
    case 'StoreSettingsCreated': {
      if (state.status !== 'created') return state;
      const d = event.data;
      const settings: SettingsFields = {
        settingsId: d.settingsId,
        taxRate: d.taxRate,
        currency: d.currency,
        printReceipts: d.printReceipts,
        receiptHeader: d.receiptHeader,
        receiptFooter: d.receiptFooter,
        kashEnabled: d.kashEnabled,
        zigiEnabled: d.zigiEnabled,
        taxRegime: taxRegimeOfRate(d.taxRate),
      };
      return { ...state, settingsId: d.settingsId, settings };
    }
    case 'StoreUpdated': {
      if (state.status !== 'created') return state;
      const fields = { ...state.fields, ...event.data.changes };
      return { ...state, fields, subdomain: fields.subdomain, isActive: fields.isActive };
    }
    case 'StoreSettingsUpdated':
      if (state.status !== 'created' || !state.settings) return state;
      return { ...state, settings: { ...state.settings, ...event.data.changes } };
    default:
      return state;
  }
}

function createStore(c: CreateStore['data'], state: StoreState): StoreEvent[] {
  if (state.status !== 'none') throw new IllegalStateError('La tienda ya existe');
  if (isReservedSubdomain(c.subdomain)) throw new ValidationError(AuthMessages.subdomainReserved, { fields: { subdomain: AuthMessages.subdomainReserved } });
  const store: StoreCreated = {
    storeId: c.storeId,
    ownerId: c.ownerId,
    name: c.name,
    subdomain: c.subdomain,
    businessType: c.businessType,
    description: c.description ?? null,
    phone: c.phone ?? null,
    email: c.email ?? null,
    address: c.address ?? null,
    department: c.department,
    website: c.website ?? null,
    whatsappNumber: c.whatsappNumber ?? null,
    businessHours: c.businessHours ?? null,
    logoUrl: null,
    ...STORE_DEFAULTS,
    createdAt: c.now,
  };
  const settings: StoreSettingsCreated = {
    settingsId: c.settingsId,
    storeId: c.storeId,
    ...STORE_SETTINGS_DEFAULTS,
    receiptHeader: null,
    receiptFooter: null,
    createdAt: c.now,
  };
  return [
    { type: 'StoreCreated', data: store },
    { type: 'StoreSettingsCreated', data: settings },
  ];
}

/** Only the fields whose value differs from the state's. */
function diff<T extends object>(current: T, wanted: Partial<T>): Partial<T> {
  const changes: Partial<T> = {};
  for (const [key, value] of Object.entries(wanted) as [keyof T, T[keyof T]][]) {
    // Lists (blocked phones) compare by content.
    const same = Array.isArray(value) ? JSON.stringify(current[key]) === JSON.stringify(value) : current[key] === value;
    if (value !== undefined && !same) changes[key] = value;
  }
  return changes;
}

function existing(state: StoreState, storeId: string, ownerId?: string): Extract<StoreState, { status: 'created' }> {
  // Another owner's store answers as if it did not exist.
  if (state.status !== 'created' || state.storeId !== storeId || (ownerId !== undefined && state.ownerId !== ownerId)) {
    throw new NotFoundError('Tienda no encontrada');
  }
  return state;
}

function updateStore(c: UpdateStore['data'], state: StoreState): StoreEvent[] {
  const store = existing(state, c.storeId, c.ownerId);
  if (c.changes.subdomain !== undefined && isReservedSubdomain(c.changes.subdomain)) {
    throw new ValidationError(AuthMessages.subdomainReserved, { fields: { subdomain: AuthMessages.subdomainReserved } });
  }
  const changes = diff(store.fields, c.changes as Partial<StoreFields>);
  if (Object.keys(changes).length === 0) return [];
  return [{ type: 'StoreUpdated', data: { storeId: c.storeId, changes, updatedAt: c.now } }];
}

/** The regime decides the rate; a rate alone picks its regime. Kash and zigi cannot be turned on. */
function settingsWanted(input: UpdateStoreSettingsRequest): Partial<Omit<SettingsFields, 'settingsId'>> {
  if (input.kashEnabled === true) throw new ValidationError(SettingsMessages.comingSoon, { fields: { kashEnabled: SettingsMessages.comingSoon } });
  if (input.zigiEnabled === true) throw new ValidationError(SettingsMessages.comingSoon, { fields: { zigiEnabled: SettingsMessages.comingSoon } });
  const { taxRegime, taxRate, ...rest } = input;
  const regime = taxRegime ?? (taxRate !== undefined ? taxRegimeOfRate(taxRate) : undefined);
  if (taxRegime !== undefined && taxRate !== undefined && Math.abs(TAX_REGIME_INFO[taxRegime].taxRate - taxRate) > 1e-9) {
    throw new ValidationError(SettingsMessages.taxRegime, { fields: { taxRate: SettingsMessages.taxRegime } });
  }
  return regime === undefined ? rest : { ...rest, taxRegime: regime, taxRate: TAX_REGIME_INFO[regime].taxRate };
}

function updateSettings(c: UpdateStoreSettings['data'], state: StoreState): StoreEvent[] {
  const store = existing(state, c.storeId);
  if (!store.settings) throw new NotFoundError('La tienda aún no tiene configuración');
  const { settingsId: _id, ...current } = store.settings;
  const changes: StoreSettingsChanges = diff(current, settingsWanted(c.changes));
  if (Object.keys(changes).length === 0) return [];
  return [{ type: 'StoreSettingsUpdated', data: { storeId: c.storeId, changes, updatedAt: c.now } }];
}

function createSettings(c: CreateStoreSettings['data'], state: StoreState): StoreEvent[] {
  const store = existing(state, c.storeId, c.ownerId);
  if (store.settings) throw new IllegalStateError(SettingsMessages.settingsExist);
  const wanted = settingsWanted(c.settings);
  const settings: StoreSettingsCreated = {
    settingsId: c.settingsId,
    storeId: c.storeId,
    ...STORE_SETTINGS_DEFAULTS,
    receiptHeader: null,
    receiptFooter: null,
    ...(({ taxRegime: _r, ...rest }) => rest)(wanted),
    createdAt: c.now,
  };
  return [
    ...updateStore({ storeId: c.storeId, ownerId: c.ownerId, changes: c.store, now: c.now }, state),
    { type: 'StoreSettingsCreated', data: settings },
  ];
}

export function decideStore(command: StoreCommand, state: StoreState): StoreEvent[] {
  switch (command.type) {
    case 'CreateStore':
      return createStore(command.data, state);
    case 'UpdateStore':
      return updateStore(command.data, state);
    case 'UpdateStoreSettings':
      return updateSettings(command.data, state);
    case 'CreateStoreSettings':
      return createSettings(command.data, state);
    default:
      return assertNever(command);
  }
}

/** The Store aggregate (the tenant) with its settings record. */
export const storeDecider: Decider<StoreState, StoreCommand, StoreEvent> = {
  initialState: initialStoreState,
  evolve: evolveStore,
  decide: decideStore,
};
