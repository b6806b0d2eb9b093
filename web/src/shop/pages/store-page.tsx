import { useCallback, useEffect, useState } from 'react';
import { usePublicCategories } from '../api/get-public-categories';
import { usePublicProducts } from '../api/get-public-products';
import { useSimilarProducts } from '../api/enhance-search';
import { addToCart } from '../cart/cart-store';
import { InfoBanner } from '../components/info-banner';
import { ProductCard } from '../components/product-card';
import { ProductSearch } from '../components/product-search';
import type { PublicProductView, PublicStoreView } from '../lib/contracts';
import { FIRST_SCREEN_CARDS, PRIORITY_CARD_IMAGES } from '../lib/image';
import { ShopMessages } from '../lib/messages';
import { ProductDialog } from '../product/product-dialog';
import { useFirstScreenTakeover } from '../first-screen';
import { toast } from '../../components/toast/toast-store';

/** Images of the first screen's cards load at once; the rest wait until they scroll into view. */
const EAGER_IMAGES = FIRST_SCREEN_CARDS;

/** The shop's catalogue: info banner, search with categories, and the product grid a page at a time. */
export function StorePage({ store, onViewCart }: { store: PublicStoreView; onViewCart: () => void }) {
  const [search, setSearch] = useState('');
  const [categoryId, setCategoryId] = useState('');
  const [selected, setSelected] = useState<PublicProductView | null>(null);
  const categories = usePublicCategories(store.subdomain);
  const products = usePublicProducts(store.subdomain, { search, categoryId });
  const onSearch = useCallback((value: string) => setSearch(value), []);
  // The grid (or its error) and the category filter are rendered: the gateway's first screen gives
  // way to them in this frame (without the filter yet, the grid would show 54 px higher, then move).
  useFirstScreenTakeover(!products.isPending && !categories.isPending);

  useEffect(() => {
    document.title = store.name;
  }, [store.name]);

  const list = products.data?.pages.flatMap((p) => p.products) ?? [];
  const total = products.data?.pages[0]?.total ?? 0;
  // No product has the words as typed: the AI search still finds what was meant (typos, plurals, prices).
  const similar = useSimilarProducts(store.subdomain, search, products.isSuccess && list.length === 0 && search !== '');
  const similarList = (similar.data ?? []).filter((p) => !categoryId || p.categoryId === categoryId);

  const add = (product: PublicProductView) => {
    addToCart(store.subdomain, product, 1);
    toast({ title: ShopMessages.addedToCart, description: product.name });
  };

  return (
    <main className="shop-main">
      <InfoBanner store={store} />
      <ProductSearch store={store.subdomain} onOpenSuggestion={setSelected} categories={categories.data ?? []} categoryId={categoryId} onSearch={onSearch} onCategory={setCategoryId} />

      <section aria-labelledby="shop-products-title" aria-busy={products.isFetching}>
        <h2 id="shop-products-title" className="shop-section-title">
          Productos
          {products.isSuccess && <span className="shop-muted"> · {total === 1 ? '1 producto' : `${total} productos`}</span>}
        </h2>

        {products.isPending ? (
          <ul className="shop-grid" aria-hidden="true">
            {Array.from({ length: 6 }, (_, i) => (
              <li key={i} className="shop-card shop-card--skeleton" />
            ))}
          </ul>
        ) : products.isError && list.length === 0 ? (
          <div className="shop-empty">
            <p>{ShopMessages.productsFailed}</p>
            <button type="button" className="shop-button" onClick={() => void products.refetch()}>
              Reintentar
            </button>
          </div>
        ) : list.length === 0 && similarList.length > 0 ? (
          <>
            <p className="shop-similar">Ningún producto dice «{search}» tal cual. Estos se parecen a lo que buscas:</p>
            <ul className="shop-grid">
              {similarList.map((product) => (
                <ProductCard key={product.id} product={product} eager={false} onOpen={() => setSelected(product)} onAdd={() => add(product)} />
              ))}
            </ul>
          </>
        ) : list.length === 0 ? (
          <div className="shop-empty">
            <p>{search || categoryId ? 'No se encontraron productos con esa búsqueda.' : ShopMessages.noProducts}</p>
          </div>
        ) : (
          <>
            <ul className="shop-grid">
              {list.map((product, i) => (
                <ProductCard key={product.id} product={product} eager={i < EAGER_IMAGES} priority={i < PRIORITY_CARD_IMAGES} onOpen={() => setSelected(product)} onAdd={() => add(product)} />
              ))}
            </ul>
            {products.hasNextPage && (
              <div className="shop-more">
                <button type="button" className="shop-button" onClick={() => void products.fetchNextPage()} disabled={products.isFetchingNextPage}>
                  {products.isFetchingNextPage ? 'Cargando…' : 'Cargar más'}
                </button>
              </div>
            )}
          </>
        )}
      </section>

      <ProductDialog
        store={store}
        product={selected}
        onClose={() => setSelected(null)}
        onViewCart={() => {
          setSelected(null);
          onViewCart();
        }}
      />
    </main>
  );
}
