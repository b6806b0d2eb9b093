import { Form, Input, InputNumber, Modal, Select, Typography } from 'antd';
import { useMemo } from 'react';
import { InventoryMessages } from '@tiendita/contracts';
import { toast } from '../../../components/toast/toast-store';
import { serverMessageOr } from '../../../lib/api-error';
import { useAdjustInventory, useInventory } from '../api/inventory-api';
import { InventoryTexts, TYPE_LABELS } from '../inventory-texts';

interface AdjustValues {
  productId?: string;
  adjustmentType: string;
  newStock?: number | null;
  reason?: string;
}

/** Sets a product's counted stock with a type and a reason (inventory's adjust command). */
export function AdjustDialog({ open, productId, onClose }: { open: boolean; productId?: string; onClose: () => void }) {
  const [form] = Form.useForm<AdjustValues>();
  const products = useInventory({ page: 1, limit: 200, sortBy: 'name', sortOrder: 'asc' });
  const adjust = useAdjustInventory();
  const selectedId = Form.useWatch('productId', form);
  const selected = useMemo(() => products.data?.products.find((p) => p.id === selectedId), [products.data, selectedId]);
  const submit = (values: AdjustValues) =>
    adjust.mutate(
      { productId: values.productId!, newStock: values.newStock!, reason: values.reason ?? '', adjustmentType: values.adjustmentType as never },
      {
        onSuccess: () => {
          toast({ title: InventoryTexts.updated, description: selected?.name });
          onClose();
        },
        onError: (error) => toast({ title: 'Error', description: serverMessageOr(error, InventoryTexts.adjustFailed), variant: 'destructive' }),
      },
    );
  return (
    <Modal
      open={open}
      title="Ajustar inventario"
      onCancel={onClose}
      okText="Guardar ajuste"
      cancelText="Cancelar"
      confirmLoading={adjust.isPending}
      onOk={() => form.submit()}
      destroyOnHidden
      afterOpenChange={(visible) => {
        if (visible) form.setFieldsValue({ productId, adjustmentType: 'manual', newStock: undefined, reason: '' });
      }}
    >
      <Form form={form} layout="vertical" onFinish={submit} initialValues={{ productId, adjustmentType: 'manual' }} preserve={false}>
        <Form.Item name="productId" label="Producto" rules={[{ required: true, message: 'Selecciona un producto' }]}>
          <Select
            showSearch={{ optionFilterProp: 'label' }}
            placeholder="Selecciona un producto"
            options={(products.data?.products ?? []).map((p) => ({ value: p.id, label: p.name }))}
          />
        </Form.Item>
        {selected && (
          <Typography.Paragraph type="secondary">
            En existencia: {selected.stock} · Reservado: {selected.reserved} · Disponible: {selected.available}
          </Typography.Paragraph>
        )}
        <Form.Item name="adjustmentType" label="Tipo de ajuste" rules={[{ required: true, message: InventoryMessages.invalidType }]}>
          <Select options={Object.entries(TYPE_LABELS).map(([value, label]) => ({ value, label }))} />
        </Form.Item>
        <Form.Item
          name="newStock"
          label="Nuevo stock (unidades contadas)"
          rules={[
            { required: true, message: InventoryMessages.stockInvalid },
            { type: 'integer', message: InventoryMessages.stockInvalid },
            { type: 'number', min: 0, message: InventoryMessages.stockNegative },
          ]}
        >
          {/* No min: a negative count is shown beside the field, not turned into 0. */}
          <InputNumber inputMode="numeric" style={{ width: '100%' }} />
        </Form.Item>
        <Form.Item name="reason" label="Razón" rules={[{ required: true, whitespace: true, message: InventoryMessages.reasonMissing }]}>
          <Input.TextArea rows={3} maxLength={500} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
