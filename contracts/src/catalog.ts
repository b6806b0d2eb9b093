import { z } from 'zod';

import { CatalogMessages, DEFAULT_PRODUCT_PAGE_SIZE, MAX_PRODUCT_IMAGES } from './catalog-constants';

export * from './catalog-constants';

/**
 * A price in quetzales: a number, or a string that reads as one ("12.50"). "", null, false and other
 * non-numbers are a validation error, never 0 (z.coerce would turn them into 0).
 */
const money = z.preprocess(
  (v) => (typeof v === 'string' && v.trim() !== '' ? Number(v) : v),
  z.number({ error: CatalogMessages.priceRequired }).min(0, CatalogMessages.priceRequired).max(99_999_999.99, CatalogMessages.priceRequired),
);
const emptyToUndefined = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);
const optionalTrimmed = (max: number) => z.preprocess(emptyToUndefined, z.string().trim().max(max).optional());
/** 'none', '' and null all mean "no category". */
const categoryRef = z.preprocess((v) => (v === 'none' || v === '' ? null : v), z.string().uuid().nullable().optional());
/** A non-numeric stock becomes 0 (spec 001 §5). */
const stockValue = z.preprocess((v) => {
  if (v === undefined || v === null || v === '') return v === '' ? 0 : v;
  const n = Number(v);
  return Number.isFinite(n) ? n : 0;
}, z.number().int(CatalogMessages.stockInvalid).min(0, CatalogMessages.stockInvalid).max(1_000_000, CatalogMessages.stockInvalid));

/** POST /api/products: the product form (prices in quetzales). */
export const CreateProductRequest = z.object({
  name: z.string({ error: CatalogMessages.productNameRequired }).trim().min(1, CatalogMessages.productNameRequired).max(255),
  description: optionalTrimmed(5000),
  sku: optionalTrimmed(100),
  price: money,
  discountPercentage: z.coerce.number().min(0, CatalogMessages.discountRange).max(100, CatalogMessages.discountRange).default(0),
  stock: stockValue.default(0),
  categoryId: categoryRef,
  images: z.array(z.string().max(500)).max(MAX_PRODUCT_IMAGES, CatalogMessages.maxImages(MAX_PRODUCT_IMAGES)).default([]),
  isActive: z.boolean().default(true),
  /** Reason recorded in the price history when price or discount change. */
  changeReason: optionalTrimmed(255),
  /** Ignored if it differs from the session's store: the tenant comes from the session. */
  storeId: z.string().optional(),
});
export type CreateProductRequest = z.infer<typeof CreateProductRequest>;

/** PUT /api/products/{id}: any subset of the product fields. */
export const UpdateProductRequest = z.object({
  name: z.string().trim().min(1, CatalogMessages.productNameRequired).max(255).optional(),
  description: z.preprocess((v) => (v === '' ? null : v), z.string().trim().max(5000).nullable().optional()),
  sku: z.preprocess((v) => (v === '' ? null : v), z.string().trim().max(100).nullable().optional()),
  price: money.optional(),
  discountPercentage: z.coerce.number().min(0, CatalogMessages.discountRange).max(100, CatalogMessages.discountRange).optional(),
  stock: stockValue.optional(),
  categoryId: categoryRef,
  images: z.array(z.string().max(500)).max(MAX_PRODUCT_IMAGES, CatalogMessages.maxImages(MAX_PRODUCT_IMAGES)).optional(),
  isActive: z.boolean().optional(),
  changeReason: optionalTrimmed(255),
  storeId: z.string().optional(),
});
export type UpdateProductRequest = z.infer<typeof UpdateProductRequest>;

/** A product as the owner API answers it (quetzales with 2 decimals). */
export const ProductView = z.object({
  id: z.string().uuid(),
  storeId: z.string().uuid(),
  name: z.string(),
  description: z.string().nullable(),
  sku: z.string().nullable(),
  price: z.number(),
  discountPercentage: z.number(),
  finalPrice: z.number(),
  stock: z.number().int(),
  /** Low stock at or below this many units (the owner's minimum in inventory; LOW_STOCK_THRESHOLD unless set). */
  stockMinimum: z.number().int(),
  categoryId: z.string().uuid().nullable(),
  categoryName: z.string().nullable(),
  imageUrl: z.string().nullable(),
  images: z.array(z.string()),
  isActive: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type ProductView = z.infer<typeof ProductView>;

const boolQuery = z.preprocess((v) => (v === 'true' ? true : v === 'false' ? false : v), z.boolean().optional());

/** GET /api/products query. */
export const ProductListQuery = z.object({
  sortBy: z.enum(['name', 'price', 'stock', 'createdAt']).default('createdAt'),
  sortOrder: z.enum(['asc', 'desc']).default('desc'),
  page: z.coerce.number().int().min(1).default(1),
  limit: z.coerce.number().int().min(1).max(100).default(DEFAULT_PRODUCT_PAGE_SIZE),
  search: z.string().trim().max(200).optional(),
  /** A category id, or 'none' for products without category. */
  categoryId: z.union([z.literal('none'), z.string().uuid()]).optional(),
  isActive: boolQuery,
  lowStock: boolQuery,
});
export type ProductListQuery = z.infer<typeof ProductListQuery>;

export const ProductListResponse = z.object({
  products: z.array(ProductView),
  total: z.number().int(),
  totalPages: z.number().int(),
  currentPage: z.number().int(),
});
export type ProductListResponse = z.infer<typeof ProductListResponse>;

/** POST /api/categories. */
export const CreateCategoryRequest = z.object({
  name: z.string({ error: CatalogMessages.categoryNameRequired }).trim().min(1, CatalogMessages.categoryNameRequired).max(100, CatalogMessages.categoryNameTooLong),
  description: optionalTrimmed(1000),
  storeId: z.string().optional(),
});
export type CreateCategoryRequest = z.infer<typeof CreateCategoryRequest>;

export const CategoryView = z.object({
  id: z.string().uuid(),
  storeId: z.string().uuid(),
  name: z.string(),
  description: z.string().nullable(),
  createdAt: z.string(),
});
export type CategoryView = z.infer<typeof CategoryView>;

export const PriceHistoryEntry = z.object({
  id: z.string(),
  oldPrice: z.number().nullable(),
  newPrice: z.number(),
  oldDiscountPercentage: z.number().nullable(),
  newDiscountPercentage: z.number(),
  changeReason: z.string().nullable(),
  /** The actor's user id ('system' for changes no user made). */
  changedBy: z.string(),
  /** The actor's name as the owner knows it (first and last name), or null when catalog does not know the user. */
  changedByName: z.string().nullable(),
  createdAt: z.string(),
});
export type PriceHistoryEntry = z.infer<typeof PriceHistoryEntry>;

/** POST /api/upload, then PUT the file to uploadUrl. */
export const UploadRequest = z.object({
  filename: z.string({ error: CatalogMessages.selectAtLeastOne }).trim().min(1, CatalogMessages.selectAtLeastOne).max(255, CatalogMessages.fileNameTooLong),
  contentType: z.string({ error: CatalogMessages.onlyImages }).refine((t) => t.startsWith('image/'), CatalogMessages.onlyImages),
});
export type UploadRequest = z.infer<typeof UploadRequest>;
export const UploadResponse = z.object({ uploadUrl: z.string(), fileName: z.string() });
export type UploadResponse = z.infer<typeof UploadResponse>;

/** The optional e-mail of a rating or comment: empty means none; anything else must be an e-mail. */
const reviewerEmail = z.preprocess(emptyToUndefined, z.email({ error: CatalogMessages.invalidEmail }).max(255, CatalogMessages.invalidEmail).optional());

/** POST /api/public/products/{productId}/ratings. */
export const SubmitRatingRequest = z.object({
  rating: z.coerce.number({ error: CatalogMessages.ratingRange }).int(CatalogMessages.ratingRange).min(1, CatalogMessages.ratingRange).max(5, CatalogMessages.ratingRange).default(5),
  comment: optionalTrimmed(2000),
  customerName: z.string({ error: CatalogMessages.ratingNameRequired }).trim().min(1, CatalogMessages.ratingNameRequired).max(255),
  customerEmail: reviewerEmail,
});
export type SubmitRatingRequest = z.infer<typeof SubmitRatingRequest>;

/** POST /api/public/products/{productId}/comments. */
export const SubmitCommentRequest = z.object({
  comment: z.string({ error: CatalogMessages.commentRequired }).trim().min(1, CatalogMessages.commentRequired).max(2000),
  customerName: z.string({ error: CatalogMessages.commentRequired }).trim().min(1, CatalogMessages.commentRequired).max(255),
  customerEmail: reviewerEmail,
  parentCommentId: z.string({ error: CatalogMessages.parentCommentInvalid }).uuid(CatalogMessages.parentCommentInvalid).optional(),
});
export type SubmitCommentRequest = z.infer<typeof SubmitCommentRequest>;

export const RatingView = z.object({
  id: z.string().uuid(),
  productId: z.string().uuid(),
  rating: z.number().int(),
  comment: z.string().nullable(),
  customerName: z.string(),
  createdAt: z.string(),
});
export type RatingView = z.infer<typeof RatingView>;

export const CommentView = z.object({
  id: z.string().uuid(),
  productId: z.string().uuid(),
  comment: z.string(),
  customerName: z.string(),
  parentCommentId: z.string().uuid().nullable(),
  createdAt: z.string(),
});
export type CommentView = z.infer<typeof CommentView>;

/** A rating or comment awaiting the owner's decision (moderation view). */
export const PendingReview = z.object({
  id: z.string().uuid(),
  kind: z.enum(['rating', 'comment']),
  productId: z.string().uuid(),
  productName: z.string(),
  rating: z.number().int().nullable(),
  comment: z.string().nullable(),
  customerName: z.string(),
  customerEmail: z.string().nullable(),
  status: z.enum(['pending', 'approved', 'rejected']),
  createdAt: z.string(),
});
export type PendingReview = z.infer<typeof PendingReview>;

/** A product as shoppers see it (no cost data, only active products of active stores). */
export const PublicProductView = ProductView.omit({ storeId: true, isActive: true, stockMinimum: true });
export type PublicProductView = z.infer<typeof PublicProductView>;

export const PublicProductListResponse = z.object({
  products: z.array(PublicProductView),
  total: z.number().int(),
  totalPages: z.number().int(),
  currentPage: z.number().int(),
});
export type PublicProductListResponse = z.infer<typeof PublicProductListResponse>;

export const PublicProductQuery = z.object({
  page: z.coerce.number().int().min(1).default(1),
  limit: z.coerce.number().int().min(1).max(100).default(24),
  search: z.string().trim().max(200).optional(),
  categoryId: z.string().uuid().optional(),
});
export type PublicProductQuery = z.infer<typeof PublicProductQuery>;

/** GET /api/public/products/{productId}/details. */
export const PublicProductDetails = PublicProductView.extend({
  storeSubdomain: z.string(),
  averageRating: z.number(),
  totalRatings: z.number().int(),
  ratings: z.array(RatingView),
  comments: z.array(CommentView),
});
export type PublicProductDetails = z.infer<typeof PublicProductDetails>;
