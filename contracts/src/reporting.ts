import { z } from 'zod';
import type { OrderStatus, PaymentRecordMethod, PaymentStatus } from './ordering-events';

// Reporting's own event and the shapes of its API (money in quetzales with 2 decimals over HTTP).

/** The owner counted the cash drawer for a Guatemalan day (stream `cash-close-<storeId>-<day>`). Centavos. */
export const CashCountRecorded = z.object({
  storeId: z.string().uuid(),
  date: z.string(),
  countedCash: z.number().int().min(0),
  expectedCash: z.number().int(),
  note: z.string().nullable(),
  recordedBy: z.string(),
  recordedAt: z.string(),
});
export type CashCountRecorded = z.infer<typeof CashCountRecorded>;

export const ReportPeriod = z.enum(['today', 'week', 'month', 'year'], { error: 'Periodo inválido: usa today, week, month o year' });
export type ReportPeriod = z.infer<typeof ReportPeriod>;

const DAY = /^\d{4}-\d{2}-\d{2}$/;
export const CashCloseDate = z
  .string({ error: 'La fecha es obligatoria (AAAA-MM-DD)' })
  .regex(DAY, { error: 'La fecha debe tener el formato AAAA-MM-DD' })
  .refine((s) => !Number.isNaN(Date.parse(`${s}T00:00:00Z`)) && new Date(`${s}T00:00:00Z`).toISOString().slice(0, 10) === s, { error: 'La fecha no es válida' });

/** POST /api/reports/cash-close: the counted cash in quetzales (2 decimals at most); the day is today (Guatemala) unless given, as GET's. */
export const RecordCashCountRequest = z.object({
  date: CashCloseDate.optional(),
  countedCash: z
    .number({ error: 'El efectivo contado debe ser un número' })
    .min(0, { error: 'El efectivo contado no puede ser negativo' })
    .max(99_999_999.99, { error: 'El efectivo contado es demasiado grande' })
    .refine((n) => Math.abs(Math.round(n * 100) - n * 100) < 1e-6, { error: 'El efectivo contado admite como máximo 2 decimales' }),
  note: z.string().max(500, { error: 'La nota admite como máximo 500 caracteres' }).nullable().optional(),
});
export type RecordCashCountRequest = z.infer<typeof RecordCashCountRequest>;

export interface StatsTrend {
  /** The same hours of yesterday (00:00 up to this time of day). */
  previous: number;
  /** Change in percent with one decimal; null when yesterday had nothing to compare with. */
  change: number | null;
}

/** GET /api/stats (spec 000 §3) plus computed trends. */
export interface StatsResponse {
  todayOrders: number;
  todaySales: number;
  totalProducts: number;
  lowStockProducts: number;
  whatsappOrders: number;
  trends: { todayOrders: StatsTrend; todaySales: StatsTrend };
}

export interface ReportOrder {
  id: string;
  code: string;
  customerName: string;
  orderType: 'whatsapp' | 'pos';
  status: OrderStatus;
  /** The method it was paid with (the first, when several; a legacy order's as a recorded method); null when unpaid. */
  paymentMethod: PaymentRecordMethod | null;
  /** Every method it was paid with, in the order they were first used. */
  paymentMethods: PaymentRecordMethod[];
  /** From its payments and refunds: pending, partial, paid, refunded (or failed). */
  paymentStatus: PaymentStatus;
  /** Net paid (payments − refunds), quetzales. */
  amountPaid: number;
  total: number;
  createdAt: string;
}

/** Money by payment method: received, given back, and the net (quetzales). */
export interface PaymentMethodFigures {
  /** A legacy order's whatsapp/kash/zigi counts as 'other'. */
  paymentMethod: PaymentRecordMethod;
  payments: number;
  /** The name earlier clients read (orders counted by method before payments existed): the payments counted. */
  orders: number;
  received: number;
  refunds: number;
  refunded: number;
  /** received − refunded. */
  amount: number;
}

export interface ReportResponse {
  period: ReportPeriod;
  from: string;
  to: string;
  totalSales: number;
  /** Orders placed in the period and not cancelled. */
  orderCount: number;
  averageTicket: number;
  /** Orders placed in the period and cancelled since (not sales: shown apart). */
  cancelledOrders: number;
  cancelledAmount: number;
  whatsappOrders: number;
  posOrders: number;
  whatsappPercentage: number;
  posPercentage: number;
  activeProducts: number;
  lowStockProducts: number;
  activeCategories: number;
  salesByChannel: { channel: 'whatsapp' | 'pos'; orders: number; amount: number; percentage: number }[];
  /** Money received in the period by method, from the payments themselves (whatever the channel), net of refunds. */
  salesByPaymentMethod: PaymentMethodFigures[];
  /** Net received in the period, every method. */
  amountReceived: number;
  topProductsByUnits: { productId: string; name: string; units: number; amount: number }[];
  topProductsByAmount: { productId: string; name: string; units: number; amount: number }[];
  /** A day by hour (label 'HH:00'), a week or a month by day ('YYYY-MM-DD'), a year by month ('YYYY-MM'). */
  granularity: 'hour' | 'day' | 'month';
  series: { label: string; orders: number; amount: number }[];
  recentOrders: ReportOrder[];
}

/** One movement of money in a cash close: a payment (a legacy paid order's included) or a refund. */
export interface CashMovement {
  kind: 'payment' | 'refund';
  paymentMethod: PaymentRecordMethod;
  amount: number;
  at: string;
  orderId: string;
  orderCode: string | null;
  orderType: 'whatsapp' | 'pos' | null;
  /** Who recorded it (a display name). */
  author: string;
}

/** The cash close of a Guatemalan day: the money that changed hands that day by method, whatever the channel. */
export interface CashCloseResponse {
  date: string;
  paymentsByMethod: PaymentMethodFigures[];
  /** The same money by method under the name clients read before payments existed (`orders`: payments counted). */
  salesByPaymentMethod: { paymentMethod: PaymentRecordMethod; orders: number; amount: number }[];
  totalReceived: number;
  totalRefunded: number;
  /** Cash received − cash refunded: what the drawer should hold. */
  expectedCash: number;
  /** The day's sales (orders placed that day, not cancelled), for reference. */
  totalSales: number;
  orderCount: number;
  /** The day's payments and refunds, newest first (at most 200: `movementCount` says how many there were). */
  movements: CashMovement[];
  movementCount: number;
  countedCash: number | null;
  difference: number | null;
  note: string | null;
  recordedBy: string | null;
  recordedAt: string | null;
}

/** The channels as the reports, their exports and the cash close name them. */
export const REPORT_CHANNEL_LABELS: Record<'whatsapp' | 'pos', string> = { whatsapp: 'WhatsApp', pos: 'Punto de venta' };

/** A Guatemalan day 'YYYY-MM-DD' as es-GT writes it: 28/11/2026 (no time zone involved). */
export function formatDay(day: string): string {
  const [y, m, d] = day.slice(0, 10).split('-');
  return `${d}/${m}/${y}`;
}

const MONTHS = ['ene', 'feb', 'mar', 'abr', 'may', 'jun', 'jul', 'ago', 'sept', 'oct', 'nov', 'dic'];

/** A month 'YYYY-MM' as es-GT writes it short: 'nov 2026'. */
export function formatMonth(month: string): string {
  const [y, m] = month.split('-');
  return `${MONTHS[Number(m) - 1]} ${y}`;
}

/** An instant as a Guatemalan date and time (UTC−6 all year): 28/11/2026 14:05. */
export function formatGtDateTime(iso: string): string {
  const local = new Date(Date.parse(iso) - 6 * 3_600_000).toISOString();
  return `${formatDay(local)} ${local.slice(11, 16)}`;
}

// SalesInsightsResponse (GET /api/ai/sales-insights) is defined once, in ai.ts.
