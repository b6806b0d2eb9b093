import {
  AuthMessages,
  RESERVED_SUBDOMAINS,
  STORE_DEFAULTS,
  STORE_SETTINGS_DEFAULTS,
  type BusinessType,
  type StoreCreated,
  type StoreEvent,
  type StoreSettingsCreated,
} from '@tiendita/contracts';
import { assertNever, IllegalStateError, ValidationError, type Decider } from '@tiendita/eventsourcing';

export type StoreState =
  | { status: 'none' }
  | { status: 'created'; storeId: string; ownerId: string; subdomain: string; isActive: boolean; settingsId: string | null };

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
export type StoreCommand = CreateStore;

const reserved: ReadonlySet<string> = new Set(RESERVED_SUBDOMAINS);

/** A subdomain that would shadow an owner route, an API path or a public route. */
export function isReservedSubdomain(subdomain: string): boolean {
  return reserved.has(subdomain.toLowerCase());
}

export const initialStoreState = (): StoreState => ({ status: 'none' });

export function evolveStore(state: StoreState, event: StoreEvent): StoreState {
  switch (event.type) {
    case 'StoreCreated':
      return { status: 'created', storeId: event.data.storeId, ownerId: event.data.ownerId, subdomain: event.data.subdomain, isActive: event.data.isActive, settingsId: null };
    case 'StoreSettingsCreated':
      return state.status === 'created' ? { ...state, settingsId: event.data.settingsId } : state;
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

export function decideStore(command: StoreCommand, state: StoreState): StoreEvent[] {
  switch (command.type) {
    case 'CreateStore':
      return createStore(command.data, state);
    default:
      return assertNever(command.type);
  }
}

/** The Store aggregate (the tenant) with its settings record. */
export const storeDecider: Decider<StoreState, StoreCommand, StoreEvent> = {
  initialState: initialStoreState,
  evolve: evolveStore,
  decide: decideStore,
};
