import { Modal, Typography } from 'antd';
import type { ProductView } from '@tiendita/contracts';
import { toast } from '../../../components/toast/toast-store';
import { serverMessageOr } from '../../../lib/api';
import { useDeleteProduct } from '../api/delete-product';
import { ProductToasts } from '../lib/product-messages';

/** Asks before deleting; a failure shows the server's message or 'No se pudo eliminar el producto.'. */
export function DeleteProductModal({ product, onClose, onDeleted }: { product: ProductView | null; onClose: () => void; onDeleted: () => void }) {
  const remove = useDeleteProduct();
  const confirm = () => {
    if (!product) return;
    remove.mutate(product.id, {
      onSuccess: () => {
        toast({ title: ProductToasts.deleted, description: product.name });
        onDeleted();
      },
      onError: (error) => toast({ title: ProductToasts.errorTitle, description: serverMessageOr(error, ProductToasts.deleteFailed), variant: 'destructive' }),
    });
  };
  return (
    <Modal
      open={product !== null}
      title="¿Eliminar producto?"
      onCancel={onClose}
      onOk={confirm}
      okText="Sí, eliminar"
      cancelText="Cancelar"
      okButtonProps={{ danger: true }}
      confirmLoading={remove.isPending}
    >
      <Typography.Paragraph>
        Vas a eliminar <Typography.Text strong>{product?.name}</Typography.Text>. Dejará de aparecer en tu catálogo y en tu tienda en línea. Esta acción no se puede deshacer.
      </Typography.Paragraph>
    </Modal>
  );
}
