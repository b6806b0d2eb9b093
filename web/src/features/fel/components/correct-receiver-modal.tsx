import { Form, Input, Modal } from 'antd';
import { type FelInvoiceView, receiverIdError } from '@tiendita/contracts';
import { toast } from '../../../components/toast/toast-store';
import { serverMessageOr } from '../../../lib/api';
import { useCorrectReceiver } from '../api/order-invoice';

/** Corrects the receiver of a refused invoice (NIT with its check digit, a 13-digit CUI, or CF) and certifies it again. */
export function CorrectReceiverModal({ invoice, onClose }: { invoice: FelInvoiceView | null; onClose: () => void }) {
  const [form] = Form.useForm<{ taxId: string; name: string }>();
  const correct = useCorrectReceiver();

  const submit = async () => {
    if (!invoice) return;
    const values = await form.validateFields();
    try {
      await correct.mutateAsync({ orderId: invoice.orderId, body: { taxId: values.taxId, name: values.name?.trim() || undefined } });
      toast({ title: 'NIT corregido', description: 'La factura se envía de nuevo a certificar.' });
      onClose();
    } catch (error) {
      toast({ title: 'No se pudo corregir el NIT', description: serverMessageOr(error, 'Inténtalo de nuevo en unos momentos.'), variant: 'destructive' });
    }
  };

  return (
    <Modal
      open={invoice !== null}
      title={`Corregir el receptor del pedido ${invoice?.orderCode ?? ''}`}
      okText="Corregir y certificar"
      cancelText="Cancelar"
      confirmLoading={correct.isPending}
      onOk={() => void submit()}
      onCancel={onClose}
      destroyOnHidden
    >
      {invoice?.error && <p className="fel-error">{invoice.error}</p>}
      <Form form={form} layout="vertical" preserve={false} initialValues={{ taxId: invoice?.receiver.id ?? '', name: invoice?.receiver.name ?? '' }}>
        <Form.Item
          name="taxId"
          label="NIT o CUI del cliente"
          extra="NIT con su dígito verificador, CUI de 13 dígitos, o CF para Consumidor Final."
          rules={[{ validator: async (_r, value: string) => { const error = receiverIdError(value ?? ''); if (error) throw new Error(error); } }]}
        >
          <Input maxLength={20} autoFocus />
        </Form.Item>
        <Form.Item name="name" label="Nombre del cliente" extra="Como aparece en el RTU del cliente.">
          <Input maxLength={255} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
