import { z } from 'zod';
import { PublicProductView } from './catalog';

/** Spanish messages of the AI helpers (spec 001 §5 and §8), word for word. */
export const AiMessages = {
  productNameFirst: 'Ingresa el nombre del producto primero.',
  customerMessageRequired: 'Por favor ingresa el mensaje del cliente',
  searchTooShort: 'La búsqueda debe tener al menos 3 caracteres.',
  searchRateLimited: 'Demasiadas búsquedas. Espera un momento e intenta de nuevo.',
  descriptionGenerated: 'Descripción generada',
  descriptionFailed: 'No se pudo generar la descripción.',
  responseFailed: 'No se pudo generar la respuesta. Intenta de nuevo.',
  insightsFailed: 'No se pudo cargar el análisis',
  assistantApology: 'Lo siento, no pude responder en este momento. Intenta de nuevo en unos segundos.',
} as const;

/** Store setting aiDescriptionLength (spec 001 §9): short ≤ 50 words, normal ≤ 100, long ≤ 200. */
export const AI_DESCRIPTION_LENGTHS = ['short', 'normal', 'long'] as const;
export type AiDescriptionLength = (typeof AI_DESCRIPTION_LENGTHS)[number];
export const AI_DESCRIPTION_MAX_WORDS: Record<AiDescriptionLength, number> = { short: 50, normal: 100, long: 200 };

/** AI search: suggestions start at 3 characters after an 800 ms pause; 5 recent searches per store (spec 001 §9). */
export const AI_SEARCH_MIN_CHARS = 3;
export const AI_SEARCH_PAUSE_MS = 800;
export const AI_SEARCH_HISTORY_SIZE = 5;
/** The shop's assistant answers after 1 to 2.5 s and names up to 10 products (spec 001 §9). */
export const AI_ASSISTANT_MIN_DELAY_MS = 1000;
export const AI_ASSISTANT_MAX_DELAY_MS = 2500;
export const AI_ASSISTANT_MAX_PRODUCTS = 10;
/** Products an enhanced search suggests at most. */
export const AI_SEARCH_MAX_SUGGESTIONS = 10;

const text = (max: number) => z.preprocess((v) => (v === null || v === undefined ? '' : v), z.coerce.string().trim().max(max));

/** POST /api/ai/generate-description. The price is in quetzales (number or text). */
export const GenerateDescriptionRequest = z.object({
  productName: z.preprocess((v) => (v === null || v === undefined ? '' : v), z.string({ error: AiMessages.productNameFirst }).trim().min(1, AiMessages.productNameFirst).max(255)),
  category: text(100).optional(),
  price: z.preprocess((v) => (v === '' || v === null ? undefined : v), z.coerce.number().min(0).max(99_999_999.99).optional()).catch(undefined),
});
export type GenerateDescriptionRequest = z.infer<typeof GenerateDescriptionRequest>;

export const GenerateDescriptionResponse = z.object({ description: z.string().trim().min(1).max(2000) });
export type GenerateDescriptionResponse = z.infer<typeof GenerateDescriptionResponse>;

export const CUSTOMER_RESPONSE_TONES = ['friendly', 'professional', 'helpful'] as const;
export const CUSTOMER_MESSAGE_CATEGORIES = ['inquiry', 'complaint', 'order', 'general'] as const;
export type CustomerResponseTone = (typeof CUSTOMER_RESPONSE_TONES)[number];
export type CustomerMessageCategory = (typeof CUSTOMER_MESSAGE_CATEGORIES)[number];

/** POST /api/ai/customer-response: name and product are optional (spec 001 §5). */
export const CustomerResponseRequest = z.object({
  customerMessage: z.preprocess((v) => (v === null || v === undefined ? '' : v), z.string({ error: AiMessages.customerMessageRequired }).trim().min(1, AiMessages.customerMessageRequired).max(2000)),
  customerName: text(255).optional(),
  productName: text(255).optional(),
});
export type CustomerResponseRequest = z.infer<typeof CustomerResponseRequest>;

export const CustomerResponseResponse = z.object({
  suggestedResponse: z.string().trim().min(1).max(2000),
  tone: z.enum(CUSTOMER_RESPONSE_TONES),
  category: z.enum(CUSTOMER_MESSAGE_CATEGORIES),
});
export type CustomerResponseResponse = z.infer<typeof CustomerResponseResponse>;

/** GET /api/ai/sales-insights: lists of Spanish sentences, each with a figure from the store's reports. */
export const SalesInsightsResponse = z.object({
  insights: z.array(z.string().trim().min(1).max(500)).max(10),
  recommendations: z.array(z.string().trim().min(1).max(500)).max(10),
  trends: z.array(z.string().trim().min(1).max(500)).max(10),
});
export type SalesInsightsResponse = z.infer<typeof SalesInsightsResponse>;

export const SOCIAL_PLATFORMS = ['whatsapp', 'facebook', 'twitter', 'instagram', 'telegram'] as const;
export type SocialPlatform = (typeof SOCIAL_PLATFORMS)[number];
/** How the share dialog names each platform. */
export const SOCIAL_PLATFORM_LABELS: Record<SocialPlatform, string> = { whatsapp: 'WhatsApp', facebook: 'Facebook', twitter: 'Twitter', instagram: 'Instagram', telegram: 'Telegram' };
/** Longest caption per platform (characters); Twitter's is its post limit. */
export const SOCIAL_CAPTION_MAX_CHARS: Record<SocialPlatform, number> = { whatsapp: 700, facebook: 900, twitter: 280, instagram: 1500, telegram: 900 };

/**
 * POST /api/ai/social-caption. `data` is what the share dialog has: for a store its name and
 * description; for a product its id (which must be the store's own), name, price, description.
 */
export const SocialCaptionRequest = z.object({
  type: z.enum(['store', 'product'], { error: 'Tipo inválido: usa store o product' }),
  platform: z.preprocess((v) => (typeof v === 'string' ? v.trim().toLowerCase() : v), z.enum(SOCIAL_PLATFORMS, { error: 'Plataforma inválida' })),
  data: z
    .object({
      id: z.string().max(100).optional(),
      productId: z.string().max(100).optional(),
      name: text(255).optional(),
      description: text(2000).optional(),
      price: z.coerce.number().min(0).optional().catch(undefined),
      finalPrice: z.coerce.number().min(0).optional().catch(undefined),
    })
    .passthrough()
    .default({}),
});
export type SocialCaptionRequest = z.infer<typeof SocialCaptionRequest>;

export const SocialCaptionResponse = z.object({ caption: z.string().trim().min(1).max(2000) });
export type SocialCaptionResponse = z.infer<typeof SocialCaptionResponse>;

export const SEARCH_INTENTS = ['specific_product', 'category', 'feature', 'price_range', 'other'] as const;
export type SearchIntent = (typeof SEARCH_INTENTS)[number];

/** POST /api/ai/enhance-search/{store}: at least 3 characters. */
export const EnhanceSearchRequest = z.object({
  query: z.preprocess(
    (v) => (v === null || v === undefined ? '' : v),
    z.string({ error: AiMessages.searchTooShort }).trim().min(AI_SEARCH_MIN_CHARS, AiMessages.searchTooShort).max(200),
  ),
});
export type EnhanceSearchRequest = z.infer<typeof EnhanceSearchRequest>;

/** A suggested product: the shop's public product view (as GET /api/public/products answers it). */
export const SearchSuggestion = PublicProductView;
export type SearchSuggestion = PublicProductView;

export const EnhanceSearchResponse = z.object({
  intent: z.enum(SEARCH_INTENTS),
  enhancedTerms: z.array(z.string()),
  suggestedProducts: z.array(SearchSuggestion),
});
export type EnhanceSearchResponse = z.infer<typeof EnhanceSearchResponse>;

/** What the model must answer for a search (the products always come from the store's own index). */
export const SearchModelAnswer = z.object({
  intent: z.enum(SEARCH_INTENTS),
  enhancedTerms: z.array(z.string().trim().min(1).max(60)).max(10),
});
export type SearchModelAnswer = z.infer<typeof SearchModelAnswer>;
