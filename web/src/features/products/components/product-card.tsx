import { Button, Card, Tag, Tooltip } from 'antd';
import { DeleteOutlined, EditOutlined, EyeOutlined } from '@ant-design/icons';
import type { ProductView } from '@tiendita/contracts';
import { ProductThumb } from './product-thumb';
import { ProductPrice } from './product-price';
import { StockTag } from './stock-tag';

/** One product of the catalogue grid, with its actions: ver, editar, eliminar. */
export function ProductCard({ product, onView, onEdit, onDelete }: { product: ProductView; onView: () => void; onEdit: () => void; onDelete: () => void }) {
  return (
    <Card
      className="product-card"
      hoverable
      cover={
        <button type="button" className="product-card__cover" onClick={onView} aria-label={`Ver detalle de ${product.name}`}>
          <ProductThumb src={product.imageUrl} alt={product.name} width={320} />
          {product.discountPercentage > 0 && (
            <Tag color="red" className="product-card__discount">
              -{product.discountPercentage.toLocaleString('es-GT', { maximumFractionDigits: 2 })}%
            </Tag>
          )}
          {!product.isActive && <Tag className="product-card__inactive">Inactivo</Tag>}
        </button>
      }
      actions={[
        <Tooltip key="view" title="Ver detalle">
          <Button type="text" icon={<EyeOutlined />} onClick={onView} aria-label={`Ver ${product.name}`} />
        </Tooltip>,
        <Tooltip key="edit" title="Editar">
          <Button type="text" icon={<EditOutlined />} onClick={onEdit} aria-label={`Editar ${product.name}`} />
        </Tooltip>,
        <Tooltip key="delete" title="Eliminar">
          <Button type="text" danger icon={<DeleteOutlined />} onClick={onDelete} aria-label={`Eliminar ${product.name}`} />
        </Tooltip>,
      ]}
    >
      <div className="product-card__body">
        <span className="product-card__category">{product.categoryName ?? 'Sin categoría'}</span>
        <h2 className="product-card__name" title={product.name}>
          {product.name}
        </h2>
        {product.sku && <span className="product-card__sku">SKU: {product.sku}</span>}
        <ProductPrice price={product.price} finalPrice={product.finalPrice} discountPercentage={product.discountPercentage} />
        <StockTag stock={product.stock} minimum={product.stockMinimum} />
      </div>
    </Card>
  );
}
