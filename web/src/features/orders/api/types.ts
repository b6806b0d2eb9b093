// The orders API's shapes are the contracts' (zod schemas in contracts/src/orders.ts), re-exported
// here under the names the orders screens import; nothing is copied by hand.
export type {
  OrderHistoryEntry,
  OrderItemView,
  OrderListResponse,
  OrderStatus,
  OrderType,
  OrderView,
  PaymentMethod,
  PaymentRecordMethod,
  PaymentStatus,
  PaymentView,
  RefundView,
} from '@tiendita/contracts';

