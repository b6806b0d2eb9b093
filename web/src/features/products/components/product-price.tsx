import { Typography } from 'antd';
import { formatMoney } from '../../../lib/format';

/** The final price, and the list price struck through when there is a discount. */
export function ProductPrice({ price, finalPrice, discountPercentage, size = 'normal' }: { price: number; finalPrice: number; discountPercentage: number; size?: 'normal' | 'large' }) {
  return (
    <span className={`product-price product-price--${size}`}>
      <Typography.Text strong className="product-price__final">
        {formatMoney(finalPrice)}
      </Typography.Text>
      {discountPercentage > 0 && (
        <Typography.Text delete type="secondary" className="product-price__list">
          {formatMoney(price)}
        </Typography.Text>
      )}
    </span>
  );
}
