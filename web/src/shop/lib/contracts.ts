// The shop imports the contracts' zod-free entry (@tiendita/contracts/constants): the package's main
// entry also builds every zod schema at load time, which would add about 33 KB gzipped to the shop's
// first page on a phone. Types cost nothing at run time and come from the main entry.
export {
  ALREADY_SUBSCRIBED,
  CatalogMessages,
  formatDecimal,
  formatQuetzales,
  OrderMessages,
  publicStockLabel,
  publicStockLevel,
  RESERVED_SUBDOMAINS,
  STORE_DEFAULTS,
  SubscriptionMessages,
  type StockLevel,
} from '@tiendita/contracts/constants';
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
  SubscriptionLinkAnswer,
} from '@tiendita/contracts';
