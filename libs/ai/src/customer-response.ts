import {
  type CustomerMessageCategory,
  CustomerResponseResponse,
  type CustomerResponseTone,
} from '@tiendita/contracts';
import type { AiClient } from './client';
import { fold } from './text';

export interface CustomerResponseInput {
  customerMessage: string;
  customerName?: string;
  productName?: string;
  storeName?: string;
}

/** Words (folded, no accents) that mark each kind of message; the first kind with the most hits wins. */
const CATEGORY_WORDS: Record<Exclude<CustomerMessageCategory, 'general'>, string[]> = {
  complaint: [
    'queja', 'reclamo', 'problema', 'malo', 'mala', 'roto', 'rota', 'danado', 'danada', 'defectuoso', 'defecto', 'no funciona', 'no sirve', 'no llego',
    'no ha llegado', 'tarde', 'retraso', 'atrasado', 'devolucion', 'devolver', 'reembolso', 'molesto', 'molesta', 'pesimo', 'terrible', 'mal estado',
    'equivocado', 'incompleto', 'falta', 'cobraron', 'estafa', 'decepcion', 'inaceptable',
  ],
  order: [
    'pedido', 'pedir', 'orden', 'ordenar', 'comprar', 'compra', 'quiero', 'quisiera', 'me llevo', 'apartar', 'reservar', 'encargar', 'envio', 'enviar',
    'entrega', 'entregar', 'domicilio', 'a mi casa', 'unidades', 'docena', 'pagar', 'transferencia', 'deposito', 'factura',
  ],
  inquiry: [
    'precio', 'cuanto', 'cuesta', 'vale', 'disponible', 'disponibilidad', 'tienen', 'hay ', 'existencia', 'horario', 'abren', 'cierran', 'informacion',
    'talla', 'color', 'medida', 'garantia', 'donde', 'ubicacion', 'como', 'que incluye', 'caracteristicas', 'sirve para', 'aceptan', 'tarjeta',
  ],
};

/** The category of a customer's message, from its words (complaints first: they matter most). */
export function classifyCustomerMessage(message: string): CustomerMessageCategory {
  const text = ` ${fold(message).replace(/ñ/g, 'n').replace(/\?/g, ' ? ').replace(/[^a-z0-9? ]+/g, ' ').replace(/\s+/g, ' ')} `;
  let best: CustomerMessageCategory = 'general';
  let bestHits = 0;
  for (const [category, words] of Object.entries(CATEGORY_WORDS) as [CustomerMessageCategory, string[]][]) {
    // Whole words only ('tardes' is a greeting, 'tarde' a complaint).
    const hits = words.filter((w) => text.includes(` ${w.trim()} `)).length;
    if (hits > bestHits) {
      best = category;
      bestHits = hits;
    }
  }
  if (best === 'general' && text.includes('?')) return 'inquiry';
  return best;
}

/** The tone that fits each kind of message. */
export const TONE_BY_CATEGORY: Record<CustomerMessageCategory, CustomerResponseTone> = {
  complaint: 'professional',
  inquiry: 'helpful',
  order: 'friendly',
  general: 'friendly',
};

/** The deterministic reply: chosen by the message's category and tone, naming the customer and the product. */
export function customerResponseFallback(input: CustomerResponseInput): CustomerResponseResponse {
  const category = classifyCustomerMessage(input.customerMessage);
  const tone = TONE_BY_CATEGORY[category];
  const name = input.customerName?.trim();
  const product = input.productName?.trim();
  const about = product ? ` sobre ${product}` : '';
  const store = input.storeName?.trim();
  const signature = store ? `\n\nAtentamente, ${store}.` : '';
  let text: string;
  switch (category) {
    case 'complaint':
      text =
        `Estimado/a ${name || 'cliente'}, lamentamos mucho lo ocurrido${about} y le ofrecemos una disculpa. ` +
        'Queremos resolverlo cuanto antes: ¿podría indicarnos su número de pedido y, si es posible, enviarnos una foto? ' +
        'Con esa información le daremos una solución, ya sea un cambio, una reparación o la devolución de su dinero.';
      break;
    case 'order':
      text =
        `¡Hola${name ? ` ${name}` : ''}! Muchas gracias por tu pedido${product ? ` de ${product}` : ''}. ` +
        'Para confirmarlo, por favor compártenos la cantidad, tu dirección de entrega y la forma de pago que prefieres. ' +
        'En cuanto lo tengamos listo te avisamos por este medio.';
      break;
    case 'inquiry':
      text =
        `Hola${name ? ` ${name}` : ''}, gracias por escribirnos${about}. ` +
        (product ? `Con gusto te damos la información de ${product}: precio, disponibilidad y opciones de entrega. ` : 'Con gusto te damos la información que necesitas: precios, disponibilidad y opciones de entrega. ') +
        'Cuéntanos cualquier detalle adicional y te respondemos enseguida.';
      break;
    default:
      text =
        `¡Hola${name ? ` ${name}` : ''}! Gracias por comunicarte con nosotros${about}. ` +
        'Estamos para ayudarte con lo que necesites; dinos en qué te podemos servir y te respondemos lo antes posible.';
  }
  return { suggestedResponse: text + signature, tone, category };
}

/** A reply from the model when configured and valid, else the fallback. */
export async function suggestCustomerResponse(ai: AiClient, input: CustomerResponseInput): Promise<CustomerResponseResponse & { source: 'model' | 'fallback' }> {
  const system =
    'Eres el asistente de atención al cliente de una tienda pequeña de Guatemala. Redactas respuestas breves y amables en español para WhatsApp. ' +
    'Clasifica el mensaje (category: inquiry, complaint, order o general) y elige el tono (tone: friendly, professional o helpful). ' +
    'Responde solo con un objeto JSON {"suggestedResponse": string, "tone": string, "category": string}.';
  const user = JSON.stringify({ mensajeDelCliente: input.customerMessage, nombreDelCliente: input.customerName || null, producto: input.productName || null, tienda: input.storeName ?? null });
  const answer = await ai.json(CustomerResponseResponse, system, user, 'customer-response');
  if (answer) return { ...answer, source: 'model' };
  return { ...customerResponseFallback(input), source: 'fallback' };
}
