// antd in jsdom is slow on a loaded machine (seconds per render): these tests get two minutes each.
jest.setTimeout(120_000);

import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import { CheckoutModal } from './checkout-modal';
import type { PosLine } from '../lib/pos-cart';
import { useStandIn } from '../../../../test/stand-in-server';

const lines: PosLine[] = [{ productId: '60cd69a5-34a4-5a07-84b8-22ef50c2e365', name: 'Café molido 1 lb', sku: null, price: 45, stock: 3, quantity: 2 }];

const api = useStandIn();

function renderCheckout(onSold = jest.fn()) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <MemoryRouter>
        <CheckoutModal open lines={lines} onClose={jest.fn()} onSold={onSold} />
      </MemoryRouter>
    </QueryClientProvider>,
  );
  return onSold;
}

const sales = () => api.received.filter((r) => r.method === 'POST' && r.path === '/api/orders');

describe('cobro en el POS', () => {
  it('una venta aceptada muestra el código, el cambio y el enlace al recibo', async () => {
    api.on('POST', '/api/orders', { status: 201, body: { id: 'a5ca7a31-cf41-55d6-be5b-6457c8ab471e', code: '6PQPEW', total: 90, change: 10 } });
    const onSold = renderCheckout();
    fireEvent.click(screen.getByRole('button', { name: 'Q100' }));
    fireEvent.click(screen.getByRole('button', { name: /Confirmar venta/ }));
    expect(await screen.findByText(/Pedido 6PQPEW/, undefined, { timeout: 45_000 })).toBeInTheDocument();
    expect(screen.getByText(/Cambio: Q\s10\.00/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Ver recibo' })).toHaveAttribute('href', '/orders/a5ca7a31-cf41-55d6-be5b-6457c8ab471e/receipt');
    await waitFor(() => expect(onSold).toHaveBeenCalled());
  });

  it('efectivo menor que el total: Pago Insuficiente, y no se envía nada', async () => {
    const before = sales().length;
    renderCheckout();
    fireEvent.click(screen.getByRole('button', { name: 'Q50' }));
    fireEvent.click(screen.getByRole('button', { name: /Confirmar venta/ }));
    expect(await screen.findByText('Pago Insuficiente: El monto recibido es menor al total de la venta', undefined, { timeout: 45_000 })).toBeInTheDocument();
    expect(sales()).toHaveLength(before);
  });

  it('una venta rechazada muestra el mensaje del servidor', async () => {
    api.on('POST', '/api/orders', { status: 409, body: { message: 'Sin Stock: Café molido 1 lb (quedan 1)', code: 'CONFLICT' } });
    const onSold = renderCheckout();
    fireEvent.click(screen.getByRole('button', { name: 'Exacto' }));
    fireEvent.click(screen.getByRole('button', { name: /Confirmar venta/ }));
    expect(await screen.findByText('Sin Stock: Café molido 1 lb (quedan 1)', undefined, { timeout: 45_000 })).toBeInTheDocument();
    expect(onSold).not.toHaveBeenCalled();
    const sale = sales().at(-1)!;
    expect(sale.body).toMatchObject({ paymentMethod: 'cash', cashReceived: 90, customerName: 'Cliente en tienda', customerNit: 'CF', items: [{ productId: lines[0].productId, quantity: 2 }] });
    expect(sale.headers['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
  });
});
