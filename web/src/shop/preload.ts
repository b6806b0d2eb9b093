import type { QueryClient } from '@tanstack/react-query';
import { apiJson } from '../lib/api';
import { productDetailsQueryOptions } from './api/get-product-details';
import { publicCategoriesQueryOptions } from './api/get-public-categories';
import { getPublicProducts, publicProductsQueryOptions, publicProductsUrl } from './api/get-public-products';
import { publicStoreQueryOptions } from './api/get-public-store';
import type { CategoryView, PublicProductDetails, PublicProductListResponse, PublicStoreView } from './lib/contracts';
import { CARD_IMAGE_SIZES, CARD_IMAGE_WIDTH, GALLERY_IMAGE_SIZES, GALLERY_IMAGE_WIDTH, preloadImage, PRIORITY_CARD_IMAGES } from './lib/image';
import { matchShopRoute } from './shop-route';

declare global {
  interface Window {
    /** Answers public/shop-boot.js asked for before the app's code arrived, by URL. */
    __tienditaShopBoot?: Record<string, Promise<unknown> | undefined>;
  }
}

/** What shop-boot.js already asked for at `url` (taken once), else a fresh request. */
function early<T>(url: string, fresh: () => Promise<T>): Promise<T> {
  const boot = window.__tienditaShopBoot;
  const started = boot?.[url] as Promise<T> | undefined;
  if (!started) return fresh();
  delete boot![url];
  return started.catch(fresh);
}

/**
 * Starts what a shop page needs, all at once, from the entry (before React renders): the shop's
 * chunk, the store, and either its first page of products and categories or the product's details;
 * as soon as those answer, the first images (one of them is the largest paint). Otherwise each waits
 * for the one before it (entry → chunk → store → products → render → first image), and on a phone's
 * network each of those steps costs a round trip. Requests public/shop-boot.js made even earlier are
 * adopted rather than repeated. Tiny on purpose: it is in the entry every visitor loads.
 */
export function preloadShop(queryClient: QueryClient, location: Pick<Location, 'pathname' | 'search'>, loadChunk: () => Promise<unknown>): void {
  const route = matchShopRoute(location);
  if (!route) return;
  void loadChunk();
  const store = publicStoreQueryOptions(route.store);
  const storeUrl = store.queryKey.join('/');
  void queryClient.prefetchQuery({ ...store, queryFn: ({ signal }) => early(storeUrl, () => apiJson<PublicStoreView>('GET', storeUrl, { signal })) });
  if (route.productId) {
    const details = productDetailsQueryOptions(route.productId);
    const detailsUrl = details.queryKey.join('/');
    void queryClient
      .prefetchQuery({ ...details, queryFn: ({ signal }) => early(detailsUrl, () => apiJson<PublicProductDetails>('GET', detailsUrl, { signal })) })
      .then(() => {
        const product = queryClient.getQueryData(details.queryKey);
        const image = product?.images[0] ?? product?.imageUrl;
        if (image) preloadImage(image, GALLERY_IMAGE_WIDTH, GALLERY_IMAGE_SIZES);
      });
    return;
  }
  const filters = { search: '', categoryId: '' };
  const products = publicProductsQueryOptions(route.store, filters);
  void queryClient
    .prefetchInfiniteQuery({
      ...products,
      queryFn: ({ pageParam, signal }) =>
        early<PublicProductListResponse>(publicProductsUrl(route.store, filters, pageParam), () => getPublicProducts(route.store, filters, pageParam, signal)),
    })
    .then(() => {
      const first = queryClient.getQueryData(products.queryKey)?.pages[0]?.products ?? [];
      // The first row on a phone (the cards the store page marks as priority).
      for (const p of first.slice(0, PRIORITY_CARD_IMAGES)) if (p.imageUrl) preloadImage(p.imageUrl, CARD_IMAGE_WIDTH, CARD_IMAGE_SIZES);
    });
  const categories = publicCategoriesQueryOptions(route.store);
  const categoriesUrl = categories.queryKey.join('/');
  void queryClient.prefetchQuery({ ...categories, queryFn: ({ signal }) => early(categoriesUrl, () => apiJson<CategoryView[]>('GET', categoriesUrl, { signal })) });
}
