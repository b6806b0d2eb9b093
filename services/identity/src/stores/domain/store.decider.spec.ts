import { AuthMessages, RESERVED_SUBDOMAINS, type StoreEvent } from '@tiendita/contracts';
import { IllegalStateError, ValidationError } from '@tiendita/eventsourcing';
import { deciderSpec } from '@tiendita/eventsourcing/testing';
import { storeDecider, type CreateStore } from './store.decider';

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
