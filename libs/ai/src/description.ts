import { AI_DESCRIPTION_MAX_WORDS, type AiDescriptionLength, GenerateDescriptionResponse } from '@tiendita/contracts';
import type { AiClient } from './client';
import { capitalize, countWords, limitWords, pick, quetzales } from './text';

/** What a description is written from: the form's fields and the store's own data. */
export interface DescriptionInput {
  productName: string;
  category?: string;
  /** Quetzales. */
  price?: number;
  businessType?: string;
  storeName?: string;
  length: AiDescriptionLength;
}

/** A phrase per business type: what the product is good for in that kind of shop. */
const BUSINESS_PHRASES: Record<string, { use: string; quality: string; care: string }> = {
  electronics: { use: 'para mantenerte conectado en el trabajo, el estudio y el entretenimiento', quality: 'Funciona de forma confiable desde el primer día', care: 'Te orientamos sobre su uso y garantía al momento de la compra' },
  fashion: { use: 'para lucir bien en el día a día o en una ocasión especial', quality: 'Su acabado cuidado combina estilo y comodidad', care: 'Consulta tallas y colores disponibles antes de tu pedido' },
  grocery: { use: 'para tu despensa y la comida de toda la familia', quality: 'Lo seleccionamos para que llegue fresco y en buen estado', care: 'Ideal para tus compras de la semana' },
  hardware: { use: 'para tus trabajos de construcción, reparación y mantenimiento', quality: 'Es resistente y está hecho para el uso diario', care: 'Te asesoramos para que elijas la medida y el material correctos' },
  restaurant: { use: 'para disfrutar un buen sabor a cualquier hora', quality: 'Se prepara con ingredientes seleccionados', care: 'Pídelo para comer aquí o para llevar' },
  pharmacy: { use: 'para el cuidado de tu salud y la de tu familia', quality: 'Es un producto de calidad, almacenado con cuidado', care: 'Sigue siempre las indicaciones del empaque o de tu médico' },
  beauty: { use: 'para tu rutina de cuidado personal y belleza', quality: 'Su fórmula está pensada para resultados visibles', care: 'Te recomendamos cómo usarlo para aprovecharlo al máximo' },
  jewelry: { use: 'para regalar o para darte un gusto', quality: 'Sus detalles y acabado lo hacen especial', care: 'Guárdalo en un lugar seco para que conserve su brillo' },
  automotive: { use: 'para el mantenimiento y buen funcionamiento de tu vehículo', quality: 'Cumple con la calidad que tu vehículo necesita', care: 'Verifica la compatibilidad con tu modelo antes de comprar' },
  home: { use: 'para hacer tu hogar más cómodo y práctico', quality: 'Es duradero y fácil de mantener', care: 'Combina bien con distintos espacios de la casa' },
  sports: { use: 'para entrenar, jugar y mantenerte activo', quality: 'Aguanta el ritmo de tu actividad física', care: 'Elige la talla o medida adecuada para tu rendimiento' },
  books: { use: 'para aprender, estudiar o disfrutar una buena lectura', quality: 'Es una edición cuidada y de buena presentación', care: 'Un excelente regalo para lectores de todas las edades' },
  pets: { use: 'para el cuidado y bienestar de tu mascota', quality: 'Está pensado para la salud y comodidad de tu compañero', care: 'Consulta la presentación adecuada para el tamaño de tu mascota' },
  other: { use: 'para tus necesidades de todos los días', quality: 'Es de buena calidad y a un precio justo', care: 'Estamos para ayudarte con cualquier consulta' },
};

/**
 * The deterministic description: built from the product's name, category, price and the store's
 * business type, within the store's length (short ≤ 50 words, normal ≤ 100, long ≤ 200).
 */
export function descriptionFallback(input: DescriptionInput): string {
  const name = input.productName.trim();
  const phrase = BUSINESS_PHRASES[input.businessType ?? 'other'] ?? BUSINESS_PHRASES.other;
  const category = input.category?.trim();
  const price = input.price !== undefined && Number.isFinite(input.price) && input.price > 0 ? quetzales(input.price) : null;
  const store = input.storeName?.trim();
  const opening = pick(
    [`${capitalize(name)}, ideal ${phrase.use}.`, `Te presentamos ${name}, pensado ${phrase.use}.`, `${capitalize(name)}: la opción práctica ${phrase.use}.`],
    name,
  );
  const sentences = [opening];
  if (category) sentences.push(`Forma parte de nuestra selección de ${category.toLocaleLowerCase('es')}.`);
  sentences.push(`${phrase.quality}.`);
  if (price) sentences.push(`Llévalo por solo ${price}.`);
  const max = AI_DESCRIPTION_MAX_WORDS[input.length];
  if (input.length !== 'short') {
    sentences.push(`${phrase.care}.`);
    sentences.push(store ? `En ${store} te atendemos con gusto y puedes hacer tu pedido por WhatsApp.` : 'Haz tu pedido por WhatsApp y te atendemos con gusto.');
  }
  if (input.length === 'long') {
    sentences.push(
      `Al elegir ${name} recibes un producto revisado antes de la entrega, con la atención cercana de un negocio local que conoce a sus clientes.`,
      category
        ? `Si buscas más opciones de ${category.toLocaleLowerCase('es')}, revisa el resto de nuestro catálogo: encontrarás productos que lo complementan.`
        : 'Revisa el resto de nuestro catálogo: encontrarás productos que lo complementan.',
      'Consulta la disponibilidad, las formas de pago y las opciones de entrega en tu zona; respondemos rápido.',
      price ? `Su precio de ${price} es una buena inversión por la calidad que ofrece.` : 'Es una buena inversión por la calidad que ofrece.',
      '¡Aprovecha y haz tu pedido hoy!',
    );
  }
  return limitWords(sentences.join(' '), max);
}

/** A description from the model when one is configured and answers well, else the fallback; always within the length. */
export async function generateDescription(ai: AiClient, input: DescriptionInput): Promise<{ description: string; source: 'model' | 'fallback' }> {
  const max = AI_DESCRIPTION_MAX_WORDS[input.length];
  const system =
    'Eres un redactor de catálogos de tiendas pequeñas de Guatemala. Escribes en español neutro, claro y atractivo, sin inventar datos técnicos. ' +
    'Responde solo con un objeto JSON {"description": string}.';
  const user = JSON.stringify({
    tarea: `Escribe la descripción de un producto para la tienda en línea, de como máximo ${max} palabras.`,
    producto: input.productName,
    categoria: input.category || null,
    precio: input.price !== undefined ? quetzales(input.price) : null,
    tipoDeNegocio: input.businessType ?? null,
    tienda: input.storeName ?? null,
  });
  const answer = await ai.json(GenerateDescriptionResponse, system, user, 'generate-description');
  if (answer && countWords(answer.description) > 0) return { description: limitWords(answer.description, max), source: 'model' };
  return { description: descriptionFallback(input), source: 'fallback' };
}
