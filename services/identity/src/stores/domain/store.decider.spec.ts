import { AuthMessages, deriveSubdomain, RESERVED_SUBDOMAINS, SettingsMessages, type StoreEvent } from '@tiendita/contracts';
import { IllegalStateError, NotFoundError, ValidationError } from '@tiendita/eventsourcing';
import { deciderSpec } from '@tiendita/eventsourcing/testing';
import { storeDecider, type CreateStore, type UpdateStore, type UpdateStoreSettings } from './store.decider';

const spec = deciderSpec(storeDecider);
const storeId = '9d0b2f4e-1111-4c1b-9a55-0c7f2d6f0001';
const ownerId = '9d0b2f4e-2222-4c1b-9a55-0c7f2d6f0002';
const settingsId = '9d0b2f4e-3333-4c1b-9a55-0c7f2d6f0003';
const now = '2026-03-01T12:00:00.000Z';

const create = (subdomain = 'ferreteria-lopez'): CreateStore => ({
  type: 'CreateStore',
  data: {
    storeId,
    ownerId,
    settingsId,
    name: 'Ferretería López',
    subdomain,
    businessType: 'hardware',
    description: 'Herramientas y materiales',
    phone: '22223333',
    address: '4a avenida 5-10, zona 1',
    department: 'Quetzaltenango',
    whatsappNumber: '50244445555',
    now,
  },
});

const created: StoreEvent = {
  type: 'StoreCreated',
  data: {
    storeId,
    ownerId,
    name: 'Ferretería López',
    subdomain: 'ferreteria-lopez',
    businessType: 'hardware',
    description: 'Herramientas y materiales',
    phone: '22223333',
    email: null,
    address: '4a avenida 5-10, zona 1',
    department: 'Quetzaltenango',
    website: null,
    whatsappNumber: '50244445555',
    businessHours: null,
    isActive: true,
    allowOnlineOrders: true,
    requireCustomerInfo: false,
    logoUrl: null,
    primaryColor: '#0ea5e9',
    secondaryColor: '#0284c7',
    accentColor: '#dc2626',
    aiDescriptionLength: 'normal',
    createdAt: now,
  },
};
const settingsCreated: StoreEvent = {
  type: 'StoreSettingsCreated',
  data: {
    settingsId,
    storeId,
    taxRate: 0.12,
    currency: 'GTQ',
    kashEnabled: false,
    zigiEnabled: false,
    printReceipts: true,
    receiptHeader: null,
    receiptFooter: null,
    createdAt: now,
  },
};

describe('Store decider', () => {
  it('creates the store with the spec defaults and its settings record (12 %, GTQ, receipts on)', () => {
    spec.given([]).when(create()).then([created, settingsCreated]);
  });

  it('refuses to create a store that exists', () => {
    spec.given([created, settingsCreated]).when(create()).thenThrows(IllegalStateError);
  });

  it.each(['api', 'tienda', 'login', 'register', 'dashboard', 'products', 'settings', 'pos'])(
    'refuses the subdomain %s that would shadow a route',
    (subdomain) => {
      spec.given([]).when(create(subdomain)).thenThrows(ValidationError, AuthMessages.subdomainReserved);
    },
  );

  it('refuses every reserved subdomain', () => {
    for (const subdomain of RESERVED_SUBDOMAINS) {
      spec.given([]).when(create(subdomain)).thenThrows(ValidationError, AuthMessages.subdomainReserved);
    }
  });
});

const later = '2026-03-02T09:00:00.000Z';
const update = (changes: UpdateStore['data']['changes'], who = ownerId): UpdateStore => ({ type: 'UpdateStore', data: { storeId, ownerId: who, changes, now: later } });
const updateSettings = (changes: UpdateStoreSettings['data']['changes']): UpdateStoreSettings => ({ type: 'UpdateStoreSettings', data: { storeId, changes, now: later } });

describe('Store decider: settings', () => {
  it('records only the fields that change, by their StoreView names', () => {
    spec
      .given([created, settingsCreated])
      .when(update({ name: 'Ferretería López', primaryColor: '#ff5500', whatsappNumber: '50244445555', allowOnlineOrders: false }))
      .then([{ type: 'StoreUpdated', data: { storeId, changes: { primaryColor: '#ff5500', allowOnlineOrders: false }, updatedAt: later } }]);
  });

  it('records nothing when nothing changes', () => {
    spec.given([created, settingsCreated]).when(update({ name: 'Ferretería López' })).then([]);
  });

  it('follows its own changes (a second identical update is no change)', () => {
    const changed: StoreEvent = { type: 'StoreUpdated', data: { storeId, changes: { subdomain: 'martillo' }, updatedAt: later } };
    spec.given([created, settingsCreated, changed]).when(update({ subdomain: 'martillo' })).then([]);
  });

  it("answers 404 to another owner's update", () => {
    spec.given([created, settingsCreated]).when(update({ name: 'X' }, '9d0b2f4e-9999-4c1b-9a55-0c7f2d6f0009')).thenThrows(NotFoundError);
  });

  it('refuses a reserved subdomain', () => {
    spec.given([created, settingsCreated]).when(update({ subdomain: 'settings' })).thenThrows(ValidationError, AuthMessages.subdomainReserved);
  });

  it('Pequeño Contribuyente sets the rate to 5 %, and the regime travels with it', () => {
    spec
      .given([created, settingsCreated])
      .when(updateSettings({ taxRegime: 'pequeno_contribuyente', receiptFooter: 'Gracias' }))
      .then([{ type: 'StoreSettingsUpdated', data: { storeId, changes: { taxRegime: 'pequeno_contribuyente', taxRate: 0.05, receiptFooter: 'Gracias' }, updatedAt: later } }]);
  });

  it('a rate alone picks its regime; the general regime is the default already', () => {
    spec.given([created, settingsCreated]).when(updateSettings({ taxRate: 0.12 })).then([]);
  });

  it('kash and zigi cannot be enabled: Próximamente', () => {
    spec.given([created, settingsCreated]).when(updateSettings({ kashEnabled: true })).thenThrows(ValidationError, SettingsMessages.comingSoon);
    spec.given([created, settingsCreated]).when(updateSettings({ zigiEnabled: true })).thenThrows(ValidationError, SettingsMessages.comingSoon);
  });

  it('POST /api/store: 409 when the settings record exists', () => {
    spec
      .given([created, settingsCreated])
      .when({ type: 'CreateStoreSettings', data: { storeId, ownerId, settingsId, store: {}, settings: {}, now: later } })
      .thenThrows(IllegalStateError, SettingsMessages.settingsExist);
  });

  it('POST /api/store: creates the missing settings record with what was sent', () => {
    spec
      .given([created])
      .when({ type: 'CreateStoreSettings', data: { storeId, ownerId, settingsId, store: {}, settings: { taxRegime: 'pequeno_contribuyente' }, now: later } })
      .then([{ type: 'StoreSettingsCreated', data: { ...settingsCreated.data, taxRate: 0.05, createdAt: later } as never }]);
  });
});

describe('deriveSubdomain', () => {
  it('folds accents before the spec rule', () => {
    expect(deriveSubdomain('Ferretería El Martillo Ñandú')).toBe('ferreteria-el-martillo-nandu');
    expect(deriveSubdomain('Café & Más')).toBe('cafe-mas');
  });
});
