import { useCallback, useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { Alert, Badge, Button, Empty, Skeleton, Tabs } from 'antd';
import { CommentOutlined, ImportOutlined, PlusOutlined } from '@ant-design/icons';
import type { ProductView } from '@tiendita/contracts';
import { serverMessageOr } from '../../lib/api';
import { useReviews } from '../reviews/api/get-reviews';
import { useMediaQuery } from '../shell/use-media-query';
import { useProducts } from './api/get-products';
import { AddProductModal } from './components/add-product-modal';
import { DeleteProductModal } from './components/delete-product-modal';
import { EditProductModal } from './components/edit-product-modal';
import { ImportProductsModal } from './components/import-products-modal';
import { InventoryAnalysis } from './components/inventory-analysis';
import { PaginationBar } from './components/pagination-bar';
import { ProductCard } from './components/product-card';
import { ProductDetailModal } from './components/product-detail-modal';
import { ProductFilters } from './components/product-filters';
import { SortButtons } from './components/sort-buttons';
import { SummaryCards } from './components/summary-cards';
import { DEFAULT_FILTERS, hasActiveFilters, listParamsOf, type ProductFilterState } from './lib/product-filters';
import { ProductToasts } from './lib/product-messages';
import './products.css';

type PageTab = 'catalog' | 'analysis';

/** /products (spec 001 §2): summary cards, the catalogue with filters, sort and pages, and the inventory analysis. */
export function ProductsPage() {
  const navigate = useNavigate();
  const [filters, setFilters] = useState<ProductFilterState>(DEFAULT_FILTERS);
  const [tab, setTab] = useState<PageTab>('catalog');
  const [adding, setAdding] = useState(false);
  const [importing, setImporting] = useState(false);
  // A phone: the summary cards and the filters fold away so the first products show on the first screen.
  const phone = useMediaQuery('(max-width: 640px)');
  const [viewing, setViewing] = useState<ProductView | null>(null);
  const [editing, setEditing] = useState<ProductView | null>(null);
  const [deleting, setDeleting] = useState<ProductView | null>(null);
  const params = listParamsOf(filters);
  const products = useProducts(params);
  const pending = useReviews('pending');
  const data = products.data;

  const patch = useCallback((change: Partial<ProductFilterState>) => setFilters((f) => ({ ...f, ...change })), []);

  // Deleting the last product of the last page leaves the page past the end: step back.
  useEffect(() => {
    if (data && data.totalPages > 0 && filters.page > data.totalPages) patch({ page: data.totalPages });
  }, [data, filters.page, patch]);

  const pageProducts = data?.products ?? [];

  return (
    <>
      <header className="page-header products-header">
        <div>
          <h1>Productos</h1>
          <p className="products-header__lead">Administra tu catálogo: precios, descuentos, imágenes y existencias.</p>
        </div>
        <div className="products-header__actions">
          <Badge count={pending.data?.length ?? 0} size="small" overflowCount={99}>
            <Button icon={<CommentOutlined />} onClick={() => navigate('/products/reviews')} aria-label={phone ? 'Reseñas' : undefined}>
              {!phone && 'Reseñas'}
            </Button>
          </Badge>
          <Button icon={<ImportOutlined />} onClick={() => setImporting(true)} aria-label={phone ? 'Importar' : undefined}>
            {!phone && 'Importar'}
          </Button>
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setAdding(true)} aria-label={phone ? 'Agregar producto' : undefined}>
            {phone ? 'Agregar' : 'Agregar producto'}
          </Button>
        </div>
      </header>

      <SummaryCards pageProducts={pageProducts} loading={products.isPending} foldable={phone} />

      <Tabs
        activeKey={tab}
        onChange={(key) => setTab(key as PageTab)}
        className="products-tabs"
        items={[
          {
            key: 'catalog',
            label: 'Catálogo',
            children: (
              <section aria-label="Catálogo de productos">
                <ProductFilters filters={filters} onChange={patch} onClear={() => setFilters((f) => ({ ...DEFAULT_FILTERS, limit: f.limit }))} compact={phone}>
                  <SortButtons sortBy={filters.sortBy} sortOrder={filters.sortOrder} onChange={(sortBy, sortOrder) => patch({ sortBy, sortOrder, page: 1 })} />
                </ProductFilters>
                {products.isPending ? (
                  <div className="product-grid">
                    {Array.from({ length: 8 }, (_, i) => (
                      <Skeleton.Node key={i} active className="product-grid__skeleton" />
                    ))}
                  </div>
                ) : products.isError ? (
                  <Alert type="error" showIcon title="No se pudieron cargar los productos" description={serverMessageOr(products.error, 'Inténtalo de nuevo.')} />
                ) : pageProducts.length === 0 ? (
                  <Empty description={hasActiveFilters(filters) ? 'No hay productos que coincidan con los filtros' : ProductToasts.noProducts}>
                    {hasActiveFilters(filters) ? (
                      <Button onClick={() => setFilters(DEFAULT_FILTERS)}>Limpiar filtros</Button>
                    ) : (
                      <Button type="primary" icon={<PlusOutlined />} onClick={() => setAdding(true)}>
                        Agregar tu primer producto
                      </Button>
                    )}
                  </Empty>
                ) : (
                  <ul className={`product-grid${products.isPlaceholderData ? ' product-grid--stale' : ''}`} aria-busy={products.isFetching}>
                    {pageProducts.map((product) => (
                      <li key={product.id}>
                        <ProductCard product={product} onView={() => setViewing(product)} onEdit={() => setEditing(product)} onDelete={() => setDeleting(product)} />
                      </li>
                    ))}
                  </ul>
                )}
                {data && (
                  <PaginationBar page={data.currentPage} totalPages={data.totalPages} total={data.total} limit={filters.limit} onPage={(page) => patch({ page })} />
                )}
              </section>
            ),
          },
          { key: 'analysis', label: 'Análisis de inventario', children: tab === 'analysis' ? <InventoryAnalysis filterParams={params} /> : null },
        ]}
      />

      <AddProductModal open={adding} onClose={() => setAdding(false)} />
      <ImportProductsModal open={importing} onClose={() => setImporting(false)} />
      <ProductDetailModal
        product={viewing}
        onClose={() => setViewing(null)}
        onEdit={(p) => {
          setViewing(null);
          setEditing(p);
        }}
        onDelete={(p) => {
          setViewing(null);
          setDeleting(p);
        }}
      />
      <EditProductModal product={editing} onClose={() => setEditing(null)} />
      <DeleteProductModal product={deleting} onClose={() => setDeleting(null)} onDeleted={() => setDeleting(null)} />
    </>
  );
}
