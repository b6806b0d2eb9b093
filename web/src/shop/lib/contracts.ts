// The shop imports the contracts' zod-free modules directly: the package entry also builds every zod
// schema at load time, which would add about 33 KB gzipped to the shop's first page on a phone.
export { CatalogMessages, publicStockLevel, type StockLevel } from '../../../../contracts/src/catalog-constants';
export { formatQuetzales } from '../../../../contracts/src/money';
export { OrderMessages } from '../../../../contracts/src/order-constants';
export { RESERVED_SUBDOMAINS, STORE_DEFAULTS } from '../../../../contracts/src/store-constants';
export { ALREADY_SUBSCRIBED, SubscriptionMessages } from '../../../../contracts/src/subscription-constants';
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
  SubscribeInput,
} from '@tiendita/contracts';
