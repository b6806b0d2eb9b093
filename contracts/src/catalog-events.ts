import { z } from 'zod';

/** Catalog events (centavos for money). Stream ids: `product-<id>`, `category-<id>`, `review-<id>`. */
export const ProductCreated = z.object({
  productId: z.string().uuid(),
  storeId: z.string().uuid(),
  name: z.string(),
  description: z.string().nullable(),
  sku: z.string().nullable(),
  priceCentavos: z.number().int(),
  discountPercentage: z.number(),
  categoryId: z.string().uuid().nullable(),
  images: z.array(z.string()),
  isActive: z.boolean(),
  /** Stock asked for in the form; inventory opens the stock item with it. */
  initialStock: z.number().int(),
  createdBy: z.string(),
});
export type ProductCreated = z.infer<typeof ProductCreated>;

export const ProductUpdated = z.object({
  productId: z.string().uuid(),
  storeId: z.string().uuid(),
  changes: z.object({
    name: z.string().optional(),
    description: z.string().nullable().optional(),
    sku: z.string().nullable().optional(),
    categoryId: z.string().uuid().nullable().optional(),
    images: z.array(z.string()).optional(),
  }),
});
export type ProductUpdated = z.infer<typeof ProductUpdated>;

export const ProductPriceChanged = z.object({
  productId: z.string().uuid(),
  storeId: z.string().uuid(),
  oldPriceCentavos: z.number().int(),
  newPriceCentavos: z.number().int(),
  oldDiscountPercentage: z.number(),
  newDiscountPercentage: z.number(),
  changeReason: z.string().nullable(),
  changedBy: z.string(),
});
export type ProductPriceChanged = z.infer<typeof ProductPriceChanged>;

export const ProductActivated = z.object({ productId: z.string().uuid(), storeId: z.string().uuid() });
export const ProductDeactivated = ProductActivated;
export const ProductDeleted = ProductActivated;

export const CategoryCreated = z.object({
  categoryId: z.string().uuid(),
  storeId: z.string().uuid(),
  name: z.string(),
  description: z.string().nullable(),
});
export type CategoryCreated = z.infer<typeof CategoryCreated>;

export const RatingSubmitted = z.object({
  ratingId: z.string().uuid(),
  productId: z.string().uuid(),
  storeId: z.string().uuid(),
  rating: z.number().int().min(1).max(5),
  comment: z.string().nullable(),
  customerName: z.string(),
  customerEmail: z.string().nullable(),
});
export const CommentSubmitted = z.object({
  commentId: z.string().uuid(),
  productId: z.string().uuid(),
  storeId: z.string().uuid(),
  comment: z.string(),
  customerName: z.string(),
  customerEmail: z.string().nullable(),
  parentCommentId: z.string().uuid().nullable(),
});
export const ReviewModerated = z.object({
  reviewId: z.string().uuid(),
  kind: z.enum(['rating', 'comment']),
  productId: z.string().uuid(),
  storeId: z.string().uuid(),
  moderatedBy: z.string(),
});

export type ProductActivated = z.infer<typeof ProductActivated>;
export type ProductDeactivated = z.infer<typeof ProductDeactivated>;
export type ProductDeleted = z.infer<typeof ProductDeleted>;
export type RatingSubmitted = z.infer<typeof RatingSubmitted>;
export type CommentSubmitted = z.infer<typeof CommentSubmitted>;
export type ReviewModerated = z.infer<typeof ReviewModerated>;
/** The owner approved a rating or comment: from now on shoppers see it (if public). */
export const ReviewApproved = ReviewModerated;
export type ReviewApproved = ReviewModerated;
/** The owner rejected a rating or comment: shoppers never see it. */
export const ReviewRejected = ReviewModerated;
export type ReviewRejected = ReviewModerated;

/** Every catalog event type with its payload schema (consumers validate what they read). */
export const CatalogEventSchemas = {
  ProductCreated,
  ProductUpdated,
  ProductPriceChanged,
  ProductActivated,
  ProductDeactivated,
  ProductDeleted,
  CategoryCreated,
  RatingSubmitted,
  CommentSubmitted,
  ReviewApproved,
  ReviewRejected,
} as const;
export type CatalogEventType = keyof typeof CatalogEventSchemas;
