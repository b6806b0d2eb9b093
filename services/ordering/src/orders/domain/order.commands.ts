import type { OrderLine, OrderPlaced, OrderStatus, PaymentRecordMethod, PosPaymentMethod } from '@tiendita/contracts';

/** What the store's settings say about an order, as ordering's copy of them has it at placement. */
export interface StoreSnapshot {
  id: string;
  isActive: boolean;
  allowOnlineOrders: boolean;
  whatsappNumber: string | null;
  requireCustomerInfo: boolean;
  taxRate: number;
}

export interface OrderCustomer {
  name: string | null;
  phone: string | null;
  address: string | null;
  email: string | null;
  nit: string | null;
}

/**
 * Places an order: the shop's WhatsApp checkout ('public') or a POS sale ('pos', paid at once).
 * The snapshot holds the store's settings and the lines priced from ordering's copy of the
 * catalog. Placing an order already placed is a no-op (retries, Idempotency-Key).
 */
export interface PlaceOrder {
  type: 'PlaceOrder';
  command: {
    kind: 'public' | 'pos';
    orderId: string;
    storeId: string;
    code: string;
    customer: OrderCustomer;
    notes: string | null;
    /** POS only: how the sale is paid; cash received (centavos) defaults to the total. */
    paymentMethod: PosPaymentMethod | null;
    cashReceived: number | null;
    /** POS only: the id of the sale's payment. */
    paymentId: string | null;
    /** The author's display name (the shopper's name for a public order) and id. */
    placedBy: string;
    placedById: string;
    placedAt: string;
    /** POS only: the sale was made offline on a device (issue 28). */
    offline?: OrderPlaced['offline'];
  };
  snapshot: { store: StoreSnapshot | null; lines: OrderLine[] };
}

/** The owner moves the order one step forward or cancels it; cancelling a paid order refunds what was paid. */
export interface ChangeOrderStatus {
  type: 'ChangeOrderStatus';
  orderId: string;
  storeId: string;
  status: OrderStatus;
  notes: string | null;
  /** The author's display name and id. */
  changedBy: string;
  changedById: string;
  changedAt: string;
  /** One refund of everything paid by this method; without it, a refund per method paid. */
  refundMethod?: PaymentRecordMethod | null;
  /** Ids for the refunds a cancellation records (one per method at most). */
  refundIds?: readonly string[];
}

/** The system cancels a pending order not confirmed in time; a no-op once it left pending. */
export interface ExpireOrder {
  type: 'ExpireOrder';
  orderId: string;
  notes: string;
  changedAt: string;
}

/** Money received for an order (centavos). A payment id already recorded records nothing. */
export interface RecordPayment {
  type: 'RecordPayment';
  orderId: string;
  storeId: string;
  paymentId: string;
  method: PaymentRecordMethod;
  amount: number;
  reference: string | null;
  cashReceived: number | null;
  recordedBy: string;
  recordedById: string;
  recordedAt: string;
}

/** Money given back (centavos). A refund id already recorded records nothing. */
export interface RefundPayment {
  type: 'RefundPayment';
  orderId: string;
  storeId: string;
  refundId: string;
  method: PaymentRecordMethod;
  amount: number;
  reason: string | null;
  refundedBy: string;
  refundedById: string;
  refundedAt: string;
}

export type OrderCommand = PlaceOrder | ChangeOrderStatus | ExpireOrder | RecordPayment | RefundPayment;
