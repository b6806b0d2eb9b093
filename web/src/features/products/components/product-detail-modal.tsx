import { Button, Descriptions, Modal, Tag } from 'antd';
import { DeleteOutlined, EditOutlined } from '@ant-design/icons';
import type { ProductView } from '@tiendita/contracts';
import { formatDateTime, formatMoney } from '../../../lib/format';
import { ImageGallery } from './image-gallery';
import { ProductPrice } from './product-price';
import { StockTag } from './stock-tag';

/** Everything about one product, with its gallery (full-screen view), and the way to edit or delete it. */
export function ProductDetailModal({
  product,
  onClose,
  onEdit,
  onDelete,
}: {
  product: ProductView | null;
  onClose: () => void;
  onEdit: (product: ProductView) => void;
  onDelete: (product: ProductView) => void;
}) {
  return (
    <Modal
      open={product !== null}
      title={product?.name ?? 'Producto'}
      onCancel={onClose}
      width={880}
      footer={
        product && [
          <Button key="delete" danger icon={<DeleteOutlined />} onClick={() => onDelete(product)}>
            Eliminar
          </Button>,
          <Button key="edit" type="primary" icon={<EditOutlined />} onClick={() => onEdit(product)}>
            Editar
          </Button>,
        ]
      }
    >
      {product && (
        <div className="product-detail">
          <ImageGallery value={product.images} name={product.name} />
          <Descriptions
            column={1}
            size="small"
            bordered
            items={[
              { key: 'price', label: 'Precio', children: <ProductPrice price={product.price} finalPrice={product.finalPrice} discountPercentage={product.discountPercentage} /> },
              {
                key: 'discount',
                label: 'Descuento',
                children: product.discountPercentage > 0 ? `${product.discountPercentage.toLocaleString('es-GT', { maximumFractionDigits: 2 })}%` : 'Sin descuento',
              },
              { key: 'stock', label: 'Stock', children: <StockTag stock={product.stock} minimum={product.stockMinimum} /> },
              { key: 'value', label: 'Valor en inventario', children: formatMoney(product.finalPrice * product.stock) },
              { key: 'sku', label: 'SKU', children: product.sku || '—' },
              { key: 'category', label: 'Categoría', children: product.categoryName || 'Sin categoría' },
              { key: 'status', label: 'Estado', children: product.isActive ? <Tag color="green">Activo</Tag> : <Tag>Inactivo</Tag> },
              { key: 'updated', label: 'Actualizado', children: formatDateTime(product.updatedAt) },
              { key: 'created', label: 'Creado', children: formatDateTime(product.createdAt) },
              { key: 'description', label: 'Descripción', span: 'filled', children: product.description || '—' },
            ]}
          />
        </div>
      )}
    </Modal>
  );
}
