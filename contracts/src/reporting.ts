import { z } from 'zod';

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
  status: string;
  paymentMethod: string | null;
  paymentStatus: string;
  total: number;
  createdAt: string;
}

export interface ReportResponse {
  period: ReportPeriod;
  from: string;
  to: string;
  totalSales: number;
  orderCount: number;
  averageTicket: number;
  whatsappOrders: number;
  posOrders: number;
  whatsappPercentage: number;
  posPercentage: number;
  activeProducts: number;
  lowStockProducts: number;
  activeCategories: number;
  salesByChannel: { channel: 'whatsapp' | 'pos'; orders: number; amount: number; percentage: number }[];
  salesByPaymentMethod: { paymentMethod: string; orders: number; amount: number }[];
  topProductsByUnits: { productId: string; name: string; units: number; amount: number }[];
  topProductsByAmount: { productId: string; name: string; units: number; amount: number }[];
  /** Hourly for today (label 'HH:00'), daily otherwise (label 'YYYY-MM-DD'). */
  granularity: 'hour' | 'day';
  series: { label: string; orders: number; amount: number }[];
  recentOrders: ReportOrder[];
}

export interface CashCloseResponse {
  date: string;
  salesByPaymentMethod: { paymentMethod: string; orders: number; amount: number }[];
  totalSales: number;
  orderCount: number;
  expectedCash: number;
  countedCash: number | null;
  difference: number | null;
  note: string | null;
  recordedBy: string | null;
  recordedAt: string | null;
}

// SalesInsightsResponse (GET /api/ai/sales-insights) is defined once, in ai.ts.
