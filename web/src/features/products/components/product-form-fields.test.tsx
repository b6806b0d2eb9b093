// antd in jsdom is slow on a loaded machine (seconds per render): these tests get two minutes each.
jest.setTimeout(120_000);

import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { Button, Form } from 'antd';
import { CatalogMessages } from '@tiendita/contracts';
import { PricingFields, type ProductFormValues } from './product-form-fields';
import { createBodyOf, EMPTY_PRODUCT_FORM } from '../lib/product-form-values';

/** The pricing part of the product form, as the create dialog uses it; `onFinish` gets what passed validation. */
function PricingForm({ onFinish }: { onFinish: (values: ProductFormValues) => void }) {
  const [form] = Form.useForm<ProductFormValues>();
  return (
    <Form form={form} initialValues={EMPTY_PRODUCT_FORM} onFinish={(values) => onFinish({ ...EMPTY_PRODUCT_FORM, ...values })}>
      <PricingFields askReason={false} />
      <Button htmlType="submit">Crear producto</Button>
    </Form>
  );
}

function type(label: RegExp, value: string) {
  const input = screen.getByLabelText(label);
  fireEvent.change(input, { target: { value } });
  fireEvent.blur(input);
}

describe('formulario de producto: rangos de spec 001 §5', () => {
  it('un descuento de 150 % se queda en 150 y se explica junto al campo; no se guarda', async () => {
    const onFinish = jest.fn();
    render(<PricingForm onFinish={onFinish} />);
    type(/Precio/, '20');
    type(/Descuento/, '150');
    expect(screen.getByLabelText(/Descuento/)).toHaveValue('150.00');
    fireEvent.click(screen.getByRole('button', { name: 'Crear producto' }));
    expect(await screen.findByText(CatalogMessages.discountRange, undefined, { timeout: 45_000 })).toBeInTheDocument();
    expect(onFinish).not.toHaveBeenCalled();
  });

  it('un stock de -3 no se vuelve 0: se explica junto al campo', async () => {
    const onFinish = jest.fn();
    render(<PricingForm onFinish={onFinish} />);
    type(/Precio/, '20');
    type(/Stock/, '-3');
    expect(screen.getByLabelText(/Stock/)).toHaveValue('-3');
    fireEvent.click(screen.getByRole('button', { name: 'Crear producto' }));
    expect(await screen.findByText(CatalogMessages.stockInvalid, undefined, { timeout: 45_000 })).toBeInTheDocument();
    expect(onFinish).not.toHaveBeenCalled();
  });

  it('sin precio pide el precio', async () => {
    render(<PricingForm onFinish={jest.fn()} />);
    fireEvent.click(screen.getByRole('button', { name: 'Crear producto' }));
    expect(await screen.findByText(CatalogMessages.priceRequired, undefined, { timeout: 45_000 })).toBeInTheDocument();
  });

  it('valores dentro de rango pasan y muestran el precio final con descuento', async () => {
    const onFinish = jest.fn();
    render(<PricingForm onFinish={onFinish} />);
    type(/Precio/, '20');
    type(/Descuento/, '25');
    type(/Stock/, '7');
    await waitFor(() => expect(screen.getByText(/Precio final/)).toHaveTextContent(/Precio final: Q\s15\.00/), { timeout: 45_000 });
    fireEvent.click(screen.getByRole('button', { name: 'Crear producto' }));
    await waitFor(() => expect(onFinish).toHaveBeenCalled(), { timeout: 45_000 });
    const body = createBodyOf({ ...onFinish.mock.calls[0][0], name: ' Café ' });
    expect(body).toMatchObject({ name: 'Café', price: 20, discountPercentage: 25, stock: 7 });
  });
});

describe('createBodyOf', () => {
  it('un stock que no es número se envía como 0; uno negativo se envía tal cual para que el servidor lo rechace', () => {
    expect(createBodyOf({ ...EMPTY_PRODUCT_FORM, name: 'Pan', price: 1, stock: null }).stock).toBe(0);
    expect(createBodyOf({ ...EMPTY_PRODUCT_FORM, name: 'Pan', price: 1, stock: -3 }).stock).toBe(-3);
  });
});
