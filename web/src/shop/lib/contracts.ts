// The shop imports the contracts' zod-free modules directly: the package entry also builds every zod
// schema at load time, which would add about 33 KB gzipped to the shop's first page on a phone.
export { CatalogMessages, publicStockLevel, type StockLevel } from '../../../../contracts/src/catalog-constants';
export { formatQuetzales } from '../../../../contracts/src/money';
export { RESERVED_SUBDOMAINS, STORE_DEFAULTS } from '../../../../contracts/src/store-constants';
export type {
  CategoryView,
  CommentView,
  PublicProductDetails,
  PublicProductListResponse,
  PublicProductView,
  PublicStoreView,
  RatingView,
  SubmitCommentRequest,
  SubmitRatingRequest,
} from '@tiendita/contracts';
