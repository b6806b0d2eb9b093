import type { OrderStatus, OrderType, PaymentMethod, PaymentStatus } from '@tiendita/contracts';

export type { OrderStatus, OrderType, PaymentMethod, PaymentStatus };

/** One line of an order as GET /api/orders answers it (amounts in quetzales). */
export interface OrderItemView {
  productId: string;
  productName: string;
  quantity: number;
  price: number;
}

/** An order as the owner API answers it (spec 001 §3; amounts in quetzales with 2 decimals). */
export interface OrderView {
  id: string;
  code: string;
  customerName: string | null;
  customerPhone: string | null;
  customerAddress: string | null;
  customerNit: string | null;
  subtotal: number;
  tax: number;
  total: number;
  status: OrderStatus;
  orderType: OrderType;
  paymentMethod: PaymentMethod | null;
  paymentStatus: PaymentStatus;
  notes: string | null;
  whatsappMessage: string | null;
  items: OrderItemView[];
  cashReceived: number | null;
  change: number | null;
  createdAt: string;
  updatedAt: string;
}

export interface OrderListResponse {
  orders: OrderView[];
  total: number;
  totalPages: number;
  currentPage: number;
}

export type OrderSortBy = 'id' | 'total' | 'status' | 'createdAt';

/** GET /api/orders query (spec 001 §7). Dates are days (YYYY-MM-DD) in America/Guatemala. */
export interface OrderListParams {
  search?: string;
  status?: OrderStatus;
  paymentStatus?: PaymentStatus;
  orderType?: OrderType;
  startDate?: string;
  endDate?: string;
  page: number;
  limit: number;
  sortBy: OrderSortBy;
  sortOrder: 'asc' | 'desc';
}

/** One entry of GET /api/orders/{id}/history. */
export interface OrderHistoryEntry {
  id: string;
  orderId: string;
  status: OrderStatus;
  previousStatus: OrderStatus | null;
  notes: string | null;
  createdBy: string;
  createdAt: string;
}

/** POST /api/orders body for a POS sale. */
export interface CreatePosOrderRequest {
  customerName: string;
  customerPhone: string;
  customerNit: string;
  orderType: 'pos';
  paymentMethod: 'cash' | 'card';
  paymentStatus: 'paid';
  status: 'completed';
  cashReceived: number | null;
  items: { productId: string; quantity: number; price: number }[];
  subtotal: number;
  total: number;
}
