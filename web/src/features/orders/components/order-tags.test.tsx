import { render, screen } from '@testing-library/react';
import { ORDER_STATUS_LABELS, PAYMENT_STATUS_LABELS } from '@tiendita/contracts';
import { PaymentTag, StatusTag, TypeTag } from './order-tags';

describe('chips de estado y de pago', () => {
  it('cada estado del pedido se muestra con su nombre en español y su color', () => {
    const { container } = render(
      <>
        <StatusTag status="pending" />
        <StatusTag status="cancelled" />
      </>,
    );
    expect(screen.getByText(ORDER_STATUS_LABELS.pending)).toBeInTheDocument();
    expect(screen.getByText(ORDER_STATUS_LABELS.cancelled)).toBeInTheDocument();
    const tags = container.querySelectorAll('.ant-tag');
    expect(tags).toHaveLength(2);
    // Two states, two colours: the chips tell them apart at a glance.
    expect(tags[0].className).not.toBe(tags[1].className);
  });

  it('el pago lleva su prefijo donde no hay encabezado de columna', () => {
    render(
      <>
        <PaymentTag status="partial" prefix="Pago: " />
        <PaymentTag status="paid" />
      </>,
    );
    expect(screen.getByText(`Pago: ${PAYMENT_STATUS_LABELS.partial}`)).toBeInTheDocument();
    expect(screen.getByText(PAYMENT_STATUS_LABELS.paid)).toBeInTheDocument();
    expect(PAYMENT_STATUS_LABELS.partial).toBe('Pago parcial');
  });

  it('el tipo de pedido dice POS o WhatsApp', () => {
    render(
      <>
        <TypeTag type="pos" />
        <TypeTag type="whatsapp" />
      </>,
    );
    expect(screen.getByText('POS')).toBeInTheDocument();
    expect(screen.getByText('WhatsApp')).toBeInTheDocument();
  });
});
