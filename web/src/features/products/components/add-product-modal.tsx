import { Divider, Form, Modal } from 'antd';
import { toast } from '../../../components/toast/toast-store';
import { serverMessageOr } from '../../../lib/api';
import { showServerFieldErrors } from '../../../lib/antd-form-errors';
import { useCreateProduct } from '../api/create-product';
import { createBodyOf, EMPTY_PRODUCT_FORM } from '../lib/product-form-values';
import { ProductToasts } from '../lib/product-messages';
import { BasicInfoFields, PricingFields, type ProductFormValues } from './product-form-fields';

/** 'Agregar Nuevo Producto': the product form, sent as POST /api/products. */
export function AddProductModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  const [form] = Form.useForm<ProductFormValues>();
  const create = useCreateProduct();

  const submit = (values: ProductFormValues) =>
    create.mutate(createBodyOf(values), {
      onSuccess: (product) => {
        toast({ title: ProductToasts.created, description: product?.name ?? values.name });
        form.resetFields();
        onClose();
      },
      onError: (error) => {
        showServerFieldErrors(form, error);
        toast({ title: ProductToasts.errorTitle, description: serverMessageOr(error, ProductToasts.createFailed), variant: 'destructive' });
      },
    });

  return (
    <Modal
      open={open}
      title="Agregar Nuevo Producto"
      onCancel={onClose}
      okText="Crear producto"
      cancelText="Cancelar"
      onOk={() => form.submit()}
      confirmLoading={create.isPending}
      width={720}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" initialValues={EMPTY_PRODUCT_FORM} onFinish={submit} requiredMark="optional" name="add-product">
        <BasicInfoFields />
        <Divider titlePlacement="start">Precios e inventario</Divider>
        <PricingFields askReason={false} />
      </Form>
    </Modal>
  );
}
