import { resolveRoute } from '../src/routes';

describe('rutas de FEL', () => {
  it('la factura de un pedido va al servicio FEL; el resto del pedido, a ordering', () => {
    const id = '3f1d2c4b-1a2b-4c3d-8e9f-0a1b2c3d4e5f';
    expect(resolveRoute('GET', `/api/orders/${id}/invoice`)?.service).toBe('fel');
    expect(resolveRoute('GET', `/api/orders/${id}/invoice.xml`)?.service).toBe('fel');
    expect(resolveRoute('GET', `/api/orders/${id}/invoice/annulment.xml`)?.service).toBe('fel');
    expect(resolveRoute('POST', `/api/orders/${id}/invoice/retry`)?.service).toBe('fel');
    expect(resolveRoute('GET', `/api/orders/${id}`)?.service).toBe('ordering');
    expect(resolveRoute('PUT', `/api/orders/${id}/status`)?.service).toBe('ordering');
    expect(resolveRoute('GET', '/api/orders/invoice')?.service).toBe('ordering');
    expect(resolveRoute('GET', '/api/fel/settings')).toMatchObject({ service: 'fel', access: 'owner' });
    expect(resolveRoute('GET', '/api/fel/documents/export')?.service).toBe('fel');
  });
});
