import type { ReactNode } from 'react';
import { render, screen } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { FelInvoiceView } from '@tiendita/contracts';
import { useStandIn } from '../../../../test/stand-in-server';
import { ReceiptFelBlock } from './receipt-fel-block';

const api = useStandIn();

function withQueries(children: ReactNode) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return <QueryClientProvider client={client}>{children}</QueryClientProvider>;
}

const certified: FelInvoiceView = {
  orderId: 'o1',
  orderCode: 'PED-0001',
  status: 'certified',
  documentType: 'FACT',
  series: 'DBB51AE2',
  number: '979518519',
  authorization: 'DBB51AE2-3A62-4437-B8E9-42ECFB761156',
  certifiedAt: '2026-11-28T15:00:00.000Z',
  certifier: { nit: '12345679', name: 'CERTIFICADOR DE PRUEBAS TIENDITA' },
  issuer: { nit: '12521337', name: 'Tienda, S.A.', commercialName: 'Tienda' },
  receiver: { id: 'CF', name: 'Consumidor Final' },
  total: 50,
  vat: 5.36,
  error: null,
  phrases: [{ type: 1, scenario: 1, text: 'Sujeto a pagos trimestrales ISR' }],
  test: true,
  issuedAt: '2026-11-28T14:59:58.000Z',
  annulment: null,
  verificationUrl: 'https://felpub.c.sat.gob.gt/verificador-web/publico/vistas/verificacionDte.jsf?tipo=autorizacion&numero=DBB51AE2-3A62-4437-B8E9-42ECFB761156',
  contingency: null,
  creditNotes: [],
};

describe('bloque FEL del recibo', () => {
  it('una factura certificada muestra tipo, serie, número, autorización, certificador, frases, aviso de prueba y el QR de la SAT', async () => {
    api.on('GET', '/api/orders/o1/invoice', { status: 200, body: certified });
    render(withQueries(<ReceiptFelBlock orderId="o1" />));
    expect(await screen.findByText('FACTURA')).toBeInTheDocument();
    expect(screen.getByText('DBB51AE2')).toBeInTheDocument();
    expect(screen.getByText('979518519')).toBeInTheDocument();
    expect(screen.getByText('DBB51AE2-3A62-4437-B8E9-42ECFB761156')).toBeInTheDocument();
    expect(screen.getByText('Sujeto a pagos trimestrales ISR')).toBeInTheDocument();
    expect(screen.getByText('DOCUMENTO DE PRUEBA — sin validez fiscal')).toBeInTheDocument();
    expect(screen.getByText(/CERTIFICADOR DE PRUEBAS TIENDITA, NIT 12345679/)).toBeInTheDocument();
    expect(screen.getByText('CF — Consumidor Final')).toBeInTheDocument();
    expect(document.querySelector('.receipt__fel-qr svg')).not.toBeNull();
  });

  it('una factura pendiente dice que está en proceso de certificación, sin QR', async () => {
    api.on('GET', '/api/orders/o2/invoice', { status: 200, body: { ...certified, orderId: 'o2', status: 'pending', series: null, number: null, authorization: null, certifiedAt: null, certifier: null, verificationUrl: null, documentType: 'FPEQ', test: false } });
    render(withQueries(<ReceiptFelBlock orderId="o2" />));
    expect(await screen.findByText('Factura en proceso de certificación')).toBeInTheDocument();
    expect(screen.getByText('FACTURA PEQUEÑO CONTRIBUYENTE')).toBeInTheDocument();
    expect(document.querySelector('.receipt__fel-qr')).toBeNull();
  });

  it('una venta sin conexión muestra su número de acceso; una nota de crédito se lista con su monto', async () => {
    api.on('GET', '/api/orders/o4/invoice', {
      status: 200,
      body: {
        ...certified,
        orderId: 'o4',
        contingency: { accessNumber: 123456789, deadline: '2026-12-05T05:59:59.999Z', late: false },
        creditNotes: [{ refundId: 'r1', status: 'certified', series: 'AB12CD34', number: '1234', authorization: 'AB12CD34-0000-4000-8000-000000000000', certifiedAt: null, issuedAt: '2026-11-28T16:00:00.000Z', total: 15, vat: 1.61, reason: 'Pan dañado', error: null }],
      },
    });
    render(withQueries(<ReceiptFelBlock orderId="o4" />));
    expect(await screen.findByText('Número de acceso')).toBeInTheDocument();
    expect(screen.getByText('123456789')).toBeInTheDocument();
    expect(screen.getByText('Nota de crédito AB12CD34-1234')).toBeInTheDocument();
  });

  it('un pedido sin factura no imprime bloque FEL', async () => {
    api.on('GET', '/api/orders/o3/invoice', { status: 404, body: { message: 'Esta venta no tiene factura electrónica.', code: 'NOT_FOUND' } });
    const { container } = render(withQueries(<ReceiptFelBlock orderId="o3" />));
    await new Promise((r) => setTimeout(r, 300));
    expect(api.received.some((r) => r.path === '/api/orders/o3/invoice')).toBe(true);
    expect(container.querySelector('.receipt__fel')).toBeNull();
  });
});
