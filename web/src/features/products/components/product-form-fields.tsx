import { Col, Form, Input, InputNumber, Row, Switch, Typography } from 'antd';
import { CatalogMessages, finalPriceCentavos, toCentavos, toQuetzales } from '@tiendita/contracts';
import { formatMoney } from '../../../lib/format';
import { CategoryField } from './category-field';
import { GenerateDescriptionButton } from './generate-description-button';
import { ImageGallery } from './image-gallery';

/** What the product form holds; turned into the request bodies by product-form-values.ts. */
export interface ProductFormValues {
  name: string;
  description?: string;
  sku?: string;
  categoryId: string;
  price: number | null;
  discountPercentage: number | null;
  stock: number | null;
  isActive: boolean;
  images: string[];
  changeReason?: string;
}

/** Name, description, SKU, category, visibility and images. */
export function BasicInfoFields() {
  const name = Form.useWatch('name') as string | undefined;
  return (
    <>
      <Form.Item name="name" label="Nombre del producto" rules={[{ required: true, whitespace: true, message: CatalogMessages.productNameRequired }]}>
        <Input maxLength={255} placeholder="Ej. Camisa de algodón" />
      </Form.Item>
      <Form.Item name="description" label="Descripción" extra={<GenerateDescriptionButton />}>
        <Input.TextArea rows={3} maxLength={5000} placeholder="Describe tu producto: material, medidas, usos…" />
      </Form.Item>
      <Row gutter={16}>
        <Col xs={24} sm={12}>
          <Form.Item name="sku" label="SKU">
            <Input maxLength={100} placeholder="Código interno (opcional)" />
          </Form.Item>
        </Col>
        <Col xs={24} sm={12}>
          <Form.Item name="categoryId" label="Categoría">
            <CategoryField />
          </Form.Item>
        </Col>
      </Row>
      <Form.Item name="isActive" label="Visible en la tienda" valuePropName="checked">
        <Switch checkedChildren="Activo" unCheckedChildren="Inactivo" />
      </Form.Item>
      <Form.Item name="images" label="Imágenes">
        <ImageGallery name={name || 'Producto'} />
      </Form.Item>
    </>
  );
}

/**
 * Price, discount (with the resulting final price), stock, and the reason for a price change. The
 * inputs take any number: a value out of spec 001 §5's ranges is shown beside its field, never
 * clamped (antd's min/max would silently turn 150 % into 100 % and -3 into 0).
 */
export function PricingFields({ askReason }: { askReason: boolean }) {
  const price = Form.useWatch('price') as number | null | undefined;
  const discount = Form.useWatch('discountPercentage') as number | null | undefined;
  // Out of range (a discount over 100 %), there is no final price to show: the field says what is wrong.
  const inRange = typeof price === 'number' && price >= 0 && (discount ?? 0) >= 0 && (discount ?? 0) <= 100;
  const final = inRange ? toQuetzales(finalPriceCentavos(toCentavos(price), discount ?? 0)) : null;
  return (
    <>
      <Row gutter={16}>
        <Col xs={24} sm={12}>
          <Form.Item
            name="price"
            label="Precio (Q)"
            rules={[
              { required: true, message: CatalogMessages.priceRequired },
              { type: 'number', min: 0, message: CatalogMessages.priceRequired },
            ]}
          >
            <InputNumber step={0.01} precision={2} prefix="Q" style={{ width: '100%' }} inputMode="decimal" />
          </Form.Item>
        </Col>
        <Col xs={24} sm={12}>
          <Form.Item name="discountPercentage" label="Descuento (%)" rules={[{ type: 'number', min: 0, max: 100, message: CatalogMessages.discountRange }]}>
            <InputNumber step={0.01} precision={2} suffix="%" style={{ width: '100%' }} inputMode="decimal" />
          </Form.Item>
        </Col>
      </Row>
      <Typography.Paragraph type="secondary">
        Precio final: <Typography.Text strong>{final === null ? '—' : formatMoney(final)}</Typography.Text>
      </Typography.Paragraph>
      <Form.Item name="stock" label="Stock (unidades)" rules={[{ type: 'integer', min: 0, message: CatalogMessages.stockInvalid }]}>
        <InputNumber step={1} style={{ width: '100%' }} inputMode="numeric" />
      </Form.Item>
      {askReason && (
        <Form.Item name="changeReason" label="Razón del cambio de precio" extra="Se guarda en el historial de precios si cambias el precio o el descuento.">
          <Input maxLength={255} placeholder="Ej. Promoción de temporada" />
        </Form.Item>
      )}
    </>
  );
}
