import { useEffect, useState } from 'react';
import { Form, Modal, Tabs } from 'antd';
import type { ProductView } from '@tiendita/contracts';
import { toast } from '../../../components/toast/toast-store';
import { fieldErrorsOf, serverMessageOr } from '../../../lib/api';
import { showServerFieldErrors } from '../../../lib/antd-form-errors';
import { useUpdateProduct } from '../api/update-product';
import { formValuesOf, updateBodyOf } from '../lib/product-form-values';
import { ProductToasts } from '../lib/product-messages';
import { PriceHistory } from './price-history';
import { BasicInfoFields, PricingFields, type ProductFormValues } from './product-form-fields';

type EditTab = 'basic' | 'pricing' | 'history';

/** The tab that holds a field. */
const tabOf = (field: string): EditTab => (['price', 'discountPercentage', 'stock', 'changeReason'].includes(field) ? 'pricing' : 'basic');

/** 'Editar Producto' with three tabs: información básica, precios e inventario, historial de precios. */
export function EditProductModal({ product, onClose }: { product: ProductView | null; onClose: () => void }) {
  const [form] = Form.useForm<ProductFormValues>();
  const update = useUpdateProduct();
  const [tab, setTab] = useState<EditTab>('basic');

  useEffect(() => {
    if (product) {
      form.setFieldsValue(formValuesOf(product));
      setTab('basic');
    }
  }, [product, form]);

  const submit = (values: ProductFormValues) => {
    if (!product) return;
    update.mutate(
      { id: product.id, body: updateBodyOf(values, product) },
      {
        onSuccess: () => {
          toast({ title: ProductToasts.updated, description: values.name });
          onClose();
        },
        onError: (error) => {
          if (showServerFieldErrors(form, error)) setTab(tabOf(Object.keys(fieldErrorsOf(error))[0] ?? ''));
          toast({ title: ProductToasts.errorTitle, description: serverMessageOr(error, ProductToasts.updateFailed), variant: 'destructive' });
        },
      },
    );
  };

  return (
    <Modal
      open={product !== null}
      title="Editar Producto"
      onCancel={onClose}
      okText="Guardar cambios"
      cancelText="Cancelar"
      onOk={() => form.submit()}
      confirmLoading={update.isPending}
      width={760}
      forceRender
    >
      <Form
        form={form}
        layout="vertical"
        onFinish={submit}
        onFinishFailed={({ errorFields }) => {
          // Show the tab that holds the first invalid field.
          setTab(tabOf(String(errorFields[0]?.name[0] ?? '')));
        }}
        requiredMark="optional"
        name="edit-product"
      >
        <Tabs
          activeKey={tab}
          onChange={(key) => setTab(key as EditTab)}
          items={[
            { key: 'basic', label: 'Información básica', forceRender: true, children: <BasicInfoFields /> },
            { key: 'pricing', label: 'Precios e inventario', forceRender: true, children: <PricingFields askReason /> },
            {
              key: 'history',
              label: 'Historial de precios',
              children: product ? <PriceHistory productId={product.id} active={tab === 'history'} /> : null,
            },
          ]}
        />
      </Form>
    </Modal>
  );
}
