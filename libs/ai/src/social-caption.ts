import { SOCIAL_CAPTION_MAX_CHARS, SocialCaptionResponse, type SocialPlatform } from '@tiendita/contracts';
import type { AiClient } from './client';
import { hashtag, quetzales } from './text';

export interface CaptionInput {
  type: 'store' | 'product';
  platform: SocialPlatform;
  storeName: string;
  businessType?: string;
  /** The public link shared (the store's or the product's page). */
  link: string;
  productName?: string;
  description?: string;
  /** Quetzales. */
  price?: number;
  finalPrice?: number;
}

const BUSINESS_TAGS: Record<string, string> = {
  electronics: '#Tecnología', fashion: '#Moda', grocery: '#Abarrotes', hardware: '#Ferretería', restaurant: '#Comida', pharmacy: '#Farmacia',
  beauty: '#Belleza', jewelry: '#Joyería', automotive: '#Automotriz', home: '#Hogar', sports: '#Deportes', books: '#Libros', pets: '#Mascotas', other: '#TiendaLocal',
};

function hashtags(input: CaptionInput, count: number): string {
  const tags = [hashtag(input.storeName), input.productName ? hashtag(input.productName) : '', BUSINESS_TAGS[input.businessType ?? 'other'] ?? '#TiendaLocal', '#Guatemala', '#CompraLocal', '#HechoEnGuate', '#PedidosPorWhatsApp', '#Ofertas', '#EmprendimientoGT'];
  return [...new Set(tags.filter(Boolean))].slice(0, count).join(' ');
}

function shorten(text: string, max: number): string {
  const t = text.replace(/\s+/g, ' ').trim();
  return t.length <= max ? t : `${t.slice(0, Math.max(0, max - 1)).replace(/\s+\S*$/, '')}…`;
}

/** Makes a caption fit its platform: never longer than its limit, the link kept whole. */
export function fitCaption(caption: string, platform: SocialPlatform, link: string): string {
  const max = SOCIAL_CAPTION_MAX_CHARS[platform];
  let text = caption.trim();
  if (!text.includes(link)) text = `${text}\n${link}`;
  if (text.length <= max) return text;
  const withoutLink = text.replace(link, '').trim();
  return `${shorten(withoutLink, max - link.length - 1)}\n${link}`;
}

/** The deterministic caption for a platform, with the public link and hashtags that suit it. */
export function captionFallback(input: CaptionInput): string {
  const price = input.finalPrice ?? input.price;
  const discounted = input.price !== undefined && input.finalPrice !== undefined && input.finalPrice < input.price;
  const priceText = price !== undefined && price > 0 ? (discounted ? `Antes ${quetzales(input.price!)}, ahora ${quetzales(price)}` : `Precio: ${quetzales(price)}`) : '';
  const desc = input.description ? shorten(input.description, input.platform === 'twitter' ? 80 : 220) : '';
  const subject =
    input.type === 'product' && input.productName
      ? `${input.productName} ya está disponible en ${input.storeName}.`
      : `Visita ${input.storeName} en línea: mira nuestro catálogo y haz tu pedido por WhatsApp.`;
  let caption: string;
  switch (input.platform) {
    case 'twitter':
      caption = [`🛍️ ${subject}`, priceText, input.link, hashtags(input, 3)].filter(Boolean).join(' ');
      break;
    case 'instagram':
      caption = `${[`✨ ${subject}`, desc, priceText && `💰 ${priceText}`, '📲 Pide por WhatsApp aquí:', input.link].filter(Boolean).join('\n')}\n\n${hashtags(input, 9)}`;
      break;
    case 'facebook':
      caption = [`🛒 ${subject}`, desc, priceText, `Haz tu pedido aquí 👉 ${input.link}`, hashtags(input, 4)].filter(Boolean).join('\n\n');
      break;
    case 'telegram':
      caption = [`🛍️ ${subject}`, desc, priceText, `👉 ${input.link}`, hashtags(input, 3)].filter(Boolean).join('\n');
      break;
    default:
      // WhatsApp: a direct message, no hashtags.
      caption = [`¡Hola! 👋 ${subject}`, desc, priceText, `Mira aquí: ${input.link}`].filter(Boolean).join('\n');
  }
  return fitCaption(caption, input.platform, input.link);
}

/** A caption from the model when configured and valid (fitted to the platform, link included), else the fallback. */
export async function generateCaption(ai: AiClient, input: CaptionInput): Promise<{ caption: string; source: 'model' | 'fallback' }> {
  const max = SOCIAL_CAPTION_MAX_CHARS[input.platform];
  const system =
    'Eres community manager de tiendas pequeñas de Guatemala. Escribes publicaciones en español para redes sociales, adaptadas a cada plataforma ' +
    '(WhatsApp sin hashtags; Instagram con varios hashtags; Twitter breve). Incluye siempre el enlace dado, tal cual. ' +
    'Responde solo con un objeto JSON {"caption": string}.';
  const user = JSON.stringify({
    plataforma: input.platform,
    maximoDeCaracteres: max,
    tipo: input.type,
    tienda: input.storeName,
    producto: input.productName ?? null,
    descripcion: input.description ?? null,
    precio: input.finalPrice ?? input.price ?? null,
    enlace: input.link,
  });
  const answer = await ai.json(SocialCaptionResponse, system, user, 'social-caption');
  if (answer) return { caption: fitCaption(answer.caption, input.platform, input.link), source: 'model' };
  return { caption: captionFallback(input), source: 'fallback' };
}
