// antd in jsdom is slow on a loaded machine (seconds per render): these tests get a minute each.
jest.setTimeout(60_000);

import type { ReactNode } from 'react';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { OrderView } from '@tiendita/contracts';
import { useStandIn } from '../../../../test/stand-in-server';
import { OrderPayments } from './order-payments';

const api = useStandIn();

function withQueries(children: ReactNode) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  return <QueryClientProvider client={client}>{children}</QueryClientProvider>;
}

const base: OrderView = {
  id: 'o1',
  storeId: 's1',
  code: 'PED-0001',
  customerName: 'Rosa',
  customerPhone: '55551234',
  customerAddress: null,
  customerEmail: null,
  customerNit: null,
  subtotal: 44.64,
  tax: 5.36,
  total: 50,
  status: 'delivered',
  orderType: 'whatsapp',
  paymentMethod: null,
  paymentStatus: 'pending',
  notes: null,
  whatsappMessage: null,
  items: [{ productId: 'p1', productName: 'Café', sku: null, quantity: 2, price: 25, lineTotal: 50 }],
  cashReceived: null,
  change: null,
  payments: [],
  refunds: [],
  amountPaid: 0,
  balanceDue: 50,
  createdAt: '2026-11-28T15:00:00.000Z',
  updatedAt: '2026-11-28T15:00:00.000Z',
};

const noop = () => undefined;

describe('pagos de un pedido', () => {
  it("'Marcar como pagado' registra el saldo en efectivo, con Idempotency-Key", async () => {
    api.on('POST', '/api/orders/o1/payments', (req) => ({ status: 201, body: { ...base, paymentStatus: 'paid', amountPaid: 50, balanceDue: 0, echo: req.body } }));
    render(withQueries(<OrderPayments order={base} onRecordPayment={noop} onRefund={noop} />));
    expect(screen.getByText('Sin pagos registrados')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Marcar como pagado el pedido PED-0001' }));
    await waitFor(() => expect(api.received.some((r) => r.path === '/api/orders/o1/payments')).toBe(true), { timeout: 20_000 });
    const sent = api.received.find((r) => r.path === '/api/orders/o1/payments')!;
    expect(sent.body).toEqual({ method: 'cash', amount: 50 });
    expect(sent.headers['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('lista cada pago y reembolso con su método en español, su monto y el nombre de quien lo registró', () => {
    const paid: OrderView = {
      ...base,
      paymentStatus: 'partial',
      amountPaid: 20,
      balanceDue: 30,
      payments: [
        { id: 'pay1', method: 'transfer', amount: 30, reference: 'BI-7788', cashReceived: null, change: null, recordedBy: 'Demo Tiendita', recordedAt: '2026-11-28T16:00:00.000Z' },
      ],
      refunds: [{ id: 'ref1', method: 'cash', amount: 10, reason: 'Producto dañado', refundedBy: 'Ana Pérez', refundedAt: '2026-11-28T17:00:00.000Z' }],
    };
    render(withQueries(<OrderPayments order={paid} onRecordPayment={noop} onRefund={noop} />));
    expect(screen.getByText('Pago parcial')).toBeInTheDocument();
    expect(screen.getByText('Transferencia')).toBeInTheDocument();
    expect(screen.getByText('Referencia: BI-7788')).toBeInTheDocument();
    expect(screen.getByText(/Demo Tiendita/)).toBeInTheDocument();
    expect(screen.getByText('Reembolso · Efectivo')).toBeInTheDocument();
    expect(screen.getByText('Motivo: Producto dañado')).toBeInTheDocument();
    expect(screen.getByText(/Ana Pérez/)).toBeInTheDocument();
    // Something is still due and something can be given back.
    expect(screen.getByRole('button', { name: /Registrar pago/ })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /Reembolsar/ })).toBeInTheDocument();
  });

  it('un pedido cancelado no ofrece cobrar', () => {
    render(withQueries(<OrderPayments order={{ ...base, status: 'cancelled' }} onRecordPayment={noop} onRefund={noop} />));
    expect(screen.queryByRole('button', { name: /Marcar como pagado/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Registrar pago/ })).not.toBeInTheDocument();
  });
});

