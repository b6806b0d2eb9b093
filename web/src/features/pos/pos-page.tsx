import { useEffect, useMemo, useRef, useState } from 'react';
import { Alert, Button, InputNumber, Skeleton } from 'antd';
import { DeleteOutlined, MinusOutlined, PlusOutlined, ShoppingCartOutlined } from '@ant-design/icons';
import type { ProductView } from '@tiendita/contracts';
import { formatMoney } from '../../lib/format';
import { serverMessageOr } from '../../lib/api-error';
import { toast } from '../../components/toast/toast-store';
import { getProducts, useProducts } from '../products/api/get-products';
import { useCategories } from '../products/api/get-categories';
import { ProductThumb } from '../products/components/product-thumb';

import { OrderMessages } from '../orders/lib/order-messages';
import { CheckoutModal } from './components/checkout-modal';
import { PosCategorySelect, PosPerClick, PosSearch } from './components/pos-tools';
import { addLine, cartTotal, cartUnits, setLineQuantity, type PosLine } from './lib/pos-cart';
import { filterCatalog } from './offline/catalog-filter';
import { offlineCatalog, preloadedProducts, useOfflinePos } from './offline/offline-pos';
import { OfflineStatus } from './offline/offline-status';
import './pos.css';

/** The pictures of the grid's first row on a phone (two columns, two rows in view): fetched first. */
const POS_FIRST_PICTURES = 4;

/** /pos (spec 001 §2, §5): product grid with search and category, quantity per click, cart and checkout. */
export function PosPage() {
  const [search, setSearch] = useState('');
  const [typed, setTyped] = useState('');
  const [categoryId, setCategoryId] = useState<string>('all');
  const [perClick, setPerClick] = useState<number>(1);
  const [lines, setLines] = useState<PosLine[]>([]);
  const [checkout, setCheckoutOpen] = useState(false);
  const [checkoutUsed, setCheckoutUsed] = useState(false);
  const setCheckout = (open: boolean) => {
    if (open) setCheckoutUsed(true);
    setCheckoutOpen(open);
  };
  const searchRef = useRef<HTMLInputElement>(null);
  const cartRef = useRef<HTMLElement>(null);
  const products = useProducts({
    search: search || undefined,
    categoryId: categoryId === 'all' ? undefined : categoryId,
    isActive: true,
    limit: 100,
    page: 1,
    sortBy: 'name',
    sortOrder: 'asc',
  });
  const categories = useCategories();
  // Offline (issue 28): the grid shows the catalogue kept on the device, its stock less the offline sales.
  const offline = useOfflinePos();
  // Opened offline, the catalogue read from IndexedDB while this page loaded is shown by the first render.
  const [cached, setCached] = useState<ProductView[] | null>(preloadedProducts);
  const fromDevice = !offline.online || products.isError;
  useEffect(() => {
    if (fromDevice) void offlineCatalog().then((c) => setCached(c?.products ?? []), () => setCached([]));
  }, [fromDevice, offline.sales.length]);
  const useCache = fromDevice && cached !== null;
  const total = cartTotal(lines);
  const units = cartUnits(lines);

  const add = (product: ProductView, quantity = perClick) => {
    const { lines: next, result } = addLine(lines, product, quantity);
    if (result === 'out-of-stock') {
      toast({ title: OrderMessages.outOfStock, description: product.name, variant: 'destructive' });
      return;
    }
    setLines(next);
    if (result === 'capped') toast({ title: 'Stock máximo', description: `Solo hay ${product.stock} de ${product.name}.` });
  };

  // A barcode scanner types the SKU and Enter: an exact SKU match goes straight into the cart.
  const onEnter = async (value: string) => {
    const code = value.trim();
    if (!code) return;
    const sameSku = (p: ProductView) => (p.sku ?? '').toLowerCase() === code.toLowerCase();
    let match = (useCache ? cached : products.data?.products)?.find(sameSku);
    if (!match && !useCache) {
      try {
        const found = await getProducts({ search: code, isActive: true, limit: 20, page: 1 });
        match = found.products.find(sameSku);
      } catch {
        match = undefined;
      }
    }
    if (match) {
      add(match);
      setTyped('');
      setSearch('');
      searchRef.current?.focus();
    } else {
      setSearch(code);
    }
  };

  const onTyped = (value: string) => {
    setTyped(value);
    if (value === '') setSearch('');
  };

  // Up to 2,000 products kept on the device: filtered and sorted again only when the search or the category changes, not on each tap.
  const deviceList = useMemo(() => (useCache ? filterCatalog(cached, search, categoryId) : null), [useCache, cached, search, categoryId]);
  const list = deviceList ?? products.data?.products ?? [];
  return (
    <div className="pos">
      <header className="page-header">
        <h1>Punto de Venta</h1>
        <p>Cobra en tu local: busca o escanea, agrega al carrito y cobra.</p>
      </header>
      <OfflineStatus state={offline} />
      <div className="pos__layout">
        <section className="pos__catalog" aria-label="Productos">
          <div className="pos__tools">
            <PosSearch
              ref={searchRef}
              value={typed}
              onChange={onTyped}
              onSearch={(value) => void onEnter(value)}
              onClear={() => {
                onTyped('');
                searchRef.current?.focus();
              }}
            />
            <PosCategorySelect
              value={categoryId}
              onChange={setCategoryId}
              options={[{ value: 'all', label: 'Todas las categorías' }, ...(categories.data ?? []).map((c) => ({ value: c.id, label: c.name }))]}
            />
            <PosPerClick value={perClick} onChange={setPerClick} />
          </div>
          {products.isError && !useCache && <Alert type="error" showIcon title={serverMessageOr(products.error, 'No se pudieron cargar los productos.')} />}
          {products.isPending && !useCache ? (
            <Skeleton active />
          ) : list.length === 0 ? (
            <p className="pos__empty">No hay productos</p>
          ) : (
            <ul className="pos__grid">
              {list.map((p, index) => {
                const inCart = lines.find((l) => l.productId === p.id)?.quantity ?? 0;
                return (
                  <li key={p.id}>
                    <button type="button" className={`pos-card${p.stock <= 0 ? ' pos-card--out' : ''}`} onClick={() => add(p)} aria-label={`Agregar ${perClick} de ${p.name}`}>
                      <ProductThumb src={p.imageUrl} alt={p.name} width={160} className="pos-card__img" priority={index < POS_FIRST_PICTURES} />
                      <span className="pos-card__name">{p.name}</span>
                      {p.sku && <span className="pos-card__sku">{p.sku}</span>}
                      <span className="pos-card__price">
                        {formatMoney(p.finalPrice)}
                        {p.discountPercentage > 0 && <s>{formatMoney(p.price)}</s>}
                      </span>
                      <span className="pos-card__stock">{p.stock <= 0 ? OrderMessages.outOfStock : `Stock: ${p.stock}`}</span>
                      {inCart > 0 && <span className="pos-card__badge">{inCart}</span>}
                    </button>
                  </li>
                );
              })}
            </ul>
          )}
        </section>
        <aside className="pos__cart" aria-label="Carrito" ref={cartRef}>
          <div className="pos__cart-head">
            <h2>
              <ShoppingCartOutlined /> Carrito ({units})
            </h2>
            <Button size="small" danger disabled={lines.length === 0} onClick={() => setLines([])}>
              Vaciar
            </Button>
          </div>
          {lines.length === 0 ? (
            <p className="pos__empty">El carrito está vacío</p>
          ) : (
            <ul className="pos__lines">
              {lines.map((l) => (
                <li key={l.productId} className="pos-line">
                  <div className="pos-line__info">
                    <span className="pos-line__name">{l.name}</span>
                    <span className="pos-line__unit">{formatMoney(l.price)} c/u</span>
                  </div>
                  <div className="pos-line__qty">
                    <Button size="small" icon={<MinusOutlined />} aria-label={`Quitar uno de ${l.name}`} onClick={() => setLines(setLineQuantity(lines, l.productId, l.quantity - 1))} />
                    <InputNumber
                      size="small"
                      className="pos-line__input"
                      aria-label={`Cantidad de ${l.name}`}
                      value={l.quantity}
                      min={0}
                      max={l.stock}
                      controls={false}
                      onChange={(v) => setLines(setLineQuantity(lines, l.productId, typeof v === 'number' ? v : 0))}
                    />
                    <Button size="small" icon={<PlusOutlined />} aria-label={`Agregar uno de ${l.name}`} disabled={l.quantity >= l.stock} onClick={() => setLines(setLineQuantity(lines, l.productId, l.quantity + 1))} />
                  </div>
                  <strong className="pos-line__total">{formatMoney(Math.round(l.price * 100) * l.quantity / 100)}</strong>
                  <Button size="small" type="text" danger icon={<DeleteOutlined />} aria-label={`Eliminar ${l.name}`} onClick={() => setLines(setLineQuantity(lines, l.productId, 0))} />
                </li>
              ))}
            </ul>
          )}
          <div className="pos__cart-total">
            <span>Total</span>
            <strong>{formatMoney(total)}</strong>
          </div>
          <Button
            type="primary"
            size="large"
            block
            onClick={() => {
              if (lines.length === 0) {
                toast({ title: OrderMessages.emptyCart, description: 'Agrega productos antes de cobrar.', variant: 'destructive' });
                return;
              }
              setCheckout(true);
            }}
          >
            Cobrar {formatMoney(total)}
          </Button>
        </aside>
      </div>
      {lines.length > 0 && (
        <div className="pos__bar">
          <Button size="large" onClick={() => cartRef.current?.scrollIntoView({ behavior: 'smooth' })}>
            <ShoppingCartOutlined /> {units}
          </Button>
          <Button type="primary" size="large" className="pos__bar-pay" onClick={() => setCheckout(true)}>
            Cobrar {formatMoney(total)}
          </Button>
        </div>
      )}
      {/* Rendered from the first 'Cobrar' on: the POS's first screen does without the dialog's code and styles. */}
      {checkoutUsed && (
        <CheckoutModal
          open={checkout}
          lines={lines}
          onClose={() => {
            setCheckout(false);
            searchRef.current?.focus();
          }}
          onSold={() => setLines([])}
          cardOffline={offline.cardOffline}
          offline={!offline.online}
        />
      )}
    </div>
  );
}
