import { formatDecimal } from '../lib/contracts';
import { formatMoney } from '../lib/format';

/** The discounted price, with the list price struck through and the discount when there is one. */
export function Price({ price, finalPrice, discountPercentage, large }: { price: number; finalPrice: number; discountPercentage: number; large?: boolean }) {
  const discounted = discountPercentage > 0 && finalPrice < price;
  return (
    <p className={`shop-price${large ? ' shop-price--large' : ''}`}>
      <span className="shop-price__final">{formatMoney(finalPrice)}</span>
      {discounted && (
        <>
          <s className="shop-price__list">
            <span className="visually-hidden">Antes </span>
            {formatMoney(price)}
          </s>
          <span className="shop-price__off">-{formatDecimal(discountPercentage, 2)}%</span>
        </>
      )}
    </p>
  );
}
