import {
  CARD_IMAGE_SIZES,
  CARD_IMAGE_WIDTH,
  FIRST_SCREEN_ID,
  type FirstScreenCard,
  type FirstScreenProduct,
  type FirstScreenStore,
  formatDecimal,
  formatQuetzales,
  GALLERY_IMAGE_SIZES,
  GALLERY_IMAGE_WIDTH,
  imageSrcSet,
  imageVariant,
  type ImageWidth,
  PRIORITY_CARD_IMAGES,
  publicStockLabel,
  publicStockLevel,
  storeThemeVars,
  whatsappLink,
} from '@tiendita/contracts';
import { escapeHtml, type LinkPreview, type PreviewTarget } from './link-previews';

/**
 * The shop page's first screen as static HTML, written by the gateway into index.html before the
 * app's root: a phone paints the header and the first cards (the largest paint is one of their
 * pictures) as soon as the HTML and the shop's stylesheet arrive, instead of after the entry, the
 * shop chunk and the API answers. It is the markup and the CSS classes the shop renders
 * (web/src/shop: shop-app.tsx, store-header.tsx, store-page.tsx, product-card.tsx, product-page.tsx,
 * product-detail.tsx, gallery.tsx…), so nothing moves when the app takes over: while the container
 * is there a rule in the head hides #root, and the shop removes the container in the same frame it
 * renders the page with its data (web/src/shop/first-screen.ts). Links are real links (they work
 * before the JavaScript); controls that need it are inert (they look the same and do nothing yet).
 * Every value from the store is HTML-escaped.
 */

/** The <style> of the head: hides the app's root while the first screen stands in for it. */
export const FIRST_SCREEN_STYLE = `<style>#${FIRST_SCREEN_ID} ~ #root{display:none}</style>`;

const e = escapeHtml;

/** Attributes of the shop's stroke icons (web/src/components/icons.tsx Icon), at `size` px. */
const icon = (size: number, body: string): string =>
  `<svg width="${size}" height="${size}" viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round" aria-hidden="true" focusable="false">${body}</svg>`;

// The icons' drawings, as web/src/shop/components/icons.tsx (and the shared ones it uses) draw them.
const ICONS = {
  help: '<circle cx="12" cy="12" r="9"></circle><path d="M9.5 9a2.5 2.5 0 0 1 4.9.8c0 1.7-2.4 2.2-2.4 3.7"></path><path d="M12 17h.01"></path>',
  mail: '<rect x="3" y="5" width="18" height="14" rx="2"></rect><path d="m3 7 9 6 9-6"></path>',
  chat: '<path d="M21 15a2 2 0 0 1-2 2H7l-4 4V5a2 2 0 0 1 2-2h14a2 2 0 0 1 2 2z"></path>',
  cart: '<circle cx="9" cy="20" r="1.5"></circle><circle cx="18" cy="20" r="1.5"></circle><path d="M2 3h3l2.7 12.4a2 2 0 0 0 2 1.6h8.1a2 2 0 0 0 2-1.5L22 7H6"></path>',
  search: '<circle cx="11" cy="11" r="7"></circle><path d="m20 20-3.5-3.5"></path>',
  pin: '<path d="M12 21s7-6.2 7-11.5A7 7 0 0 0 5 9.5C5 14.8 12 21 12 21z"></path><circle cx="12" cy="9.5" r="2.5"></circle>',
  phone: '<rect x="6" y="2" width="12" height="20" rx="2"></rect><path d="M11 18h2"></path>',
  clock: '<circle cx="12" cy="12" r="9"></circle><path d="M12 7v5l3 2"></path>',
  image: '<rect x="3" y="4" width="18" height="16" rx="2"></rect><circle cx="9" cy="10" r="2"></circle><path d="m21 17-5-5-9 8"></path>',
  chevronLeft: '<path d="M15 18l-6-6 6-6"></path>',
  chevronRight: '<path d="M9 18l6-6-6-6"></path>',
} as const;

/** The assistant's button (web/src/shop/components/assistant.tsx). */
const ASSISTANT_ICON =
  '<svg width="24" height="24" viewBox="0 0 24 24" aria-hidden="true" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round"><path d="M21 15a2 2 0 0 1-2 2H7l-4 4V5a2 2 0 0 1 2-2h14a2 2 0 0 1 2 2z"></path></svg>';
/** WhatsAppIcon of web/src/shop/components/icons.tsx. */
const WHATSAPP_ICON =
  '<svg width="20" height="20" viewBox="0 0 24 24" aria-hidden="true" focusable="false" fill="currentColor"><path d="M12 2a10 10 0 0 0-8.6 15.1L2 22l5-1.3A10 10 0 1 0 12 2zm0 18.2a8.2 8.2 0 0 1-4.2-1.2l-.3-.2-3 .8.8-2.9-.2-.3A8.2 8.2 0 1 1 12 20.2zm4.5-6.1c-.2-.1-1.5-.7-1.7-.8s-.4-.1-.6.1-.7.8-.8 1-.3.2-.5.1a6.7 6.7 0 0 1-3.3-2.9c-.3-.4.3-.4.7-1.3.1-.2 0-.3 0-.4l-.8-1.8c-.2-.5-.4-.4-.6-.4h-.5a1 1 0 0 0-.7.3 3 3 0 0 0-.9 2.2 5.2 5.2 0 0 0 1.1 2.7 11.8 11.8 0 0 0 4.5 4c1.7.7 2.3.8 3.2.6a2.7 2.7 0 0 0 1.8-1.3 2.2 2.2 0 0 0 .2-1.3c-.1-.1-.3-.2-.5-.3z"></path></svg>';
const STAR = 'M12 2.5l2.9 6 6.6.9-4.8 4.6 1.2 6.5L12 17.4l-5.9 3.1 1.2-6.5L2.5 9.4l6.6-.9z';

/** /tienda/{subdomain} (web/src/shop/shop-route.ts storeHomePath). */
const storeHomePath = (store: string): string => `/tienda/${encodeURIComponent(store)}`;
/** /{store}/product/{id} (web/src/shop/shop-route.ts productPath). */
const productPath = (store: string, productId: string): string => `/${encodeURIComponent(store)}/product/${encodeURIComponent(productId)}`;

/** ProductImage: a square variant with the shop's srcset and sizes, or the placeholder when there is none. */
function productImage(src: string | null, alt: string, width: ImageWidth, options: { sizes?: string; priority?: boolean; className?: string }): string {
  const className = options.className ?? '';
  if (!src) return `<div class="shop-img shop-img--empty ${className}" role="img" aria-label="${e(`${alt} (sin imagen)`)}">${icon(32, ICONS.image)}</div>`;
  const srcset = options.sizes ? imageSrcSet(src, width) : undefined;
  const variants = srcset && options.sizes ? ` srcset="${e(srcset)}" sizes="${e(options.sizes)}"` : '';
  const priority = options.priority ? ' fetchpriority="high"' : '';
  return `<img class="shop-img ${className}" src="${e(imageVariant(src, width))}"${variants} alt="${e(alt)}" width="${width}" height="${width}" loading="eager"${priority} decoding="async" />`;
}

/** Price: the final price, with the list price struck through and the discount when there is one. */
function price(p: { price: number; finalPrice: number; discountPercentage: number }, large = false): string {
  const discounted = p.discountPercentage > 0 && p.finalPrice < p.price;
  const off = discounted
    ? `<s class="shop-price__list"><span class="visually-hidden">Antes </span>${e(formatQuetzales(p.price))}</s><span class="shop-price__off">-${e(formatDecimal(p.discountPercentage, 2))}%</span>`
    : '';
  return `<p class="shop-price${large ? ' shop-price--large' : ''}"><span class="shop-price__final">${e(formatQuetzales(p.finalPrice))}</span>${off}</p>`;
}

const stockBadge = (stock: number): string => `<span class="shop-stock shop-stock--${publicStockLevel(stock)}">${e(publicStockLabel(stock))}</span>`;

/** StoreHeader (with StoreLogo): the actions need the app, so they are inert until it takes over. */
function header(store: FirstScreenStore, compact: boolean): string {
  const size = compact ? 40 : 56;
  const logo = store.logoUrl
    ? `<img class="shop-logo" src="${e(store.logoUrl)}" alt="${e(`Logo de ${store.name}`)}" width="${size}" height="${size}" />`
    : `<span class="shop-logo shop-logo--initial" style="width:${size}px;height:${size}px" aria-hidden="true">${e(store.name.trim().charAt(0).toUpperCase() || 'T')}</span>`;
  const title = compact ? 'p' : 'h1';
  const description = !compact && store.description ? `<span class="shop-header__description">${e(store.description)}</span>` : '';
  const button = (body: string, label?: string) => `<button type="button" class="shop-header__button"${label ? ` aria-label="${e(label)}"` : ''}>${body}</button>`;
  return (
    `<header class="shop-header${compact ? ' shop-header--compact' : ''}"><div class="shop-header__inner">` +
    `<a class="shop-header__brand" href="${e(storeHomePath(store.subdomain))}">${logo}<span class="shop-header__text"><${title} class="shop-header__name">${e(store.name)}</${title}>${description}</span></a>` +
    `<div class="shop-header__actions" inert>` +
    button(`${icon(20, ICONS.help)}<span>Ayuda</span>`) +
    button(`${icon(20, ICONS.mail)}<span>Suscribirse</span>`) +
    `<button type="button" class="shop-header__button shop-header__button--assistant" aria-label="Abrir asistente virtual" aria-expanded="false">${icon(20, ICONS.chat)}<span>Asistente</span></button>` +
    button(`${icon(20, ICONS.cart)}<span>Carrito</span>`, 'Carrito (0)') +
    `</div></div></header>`
  );
}

/** The round cart and the assistant's button (FloatingCart, Assistant); inert until the app takes over. */
function floatingButtons(onProductPage: boolean): string {
  return (
    `<button type="button" class="shop-fab${onProductPage ? ' shop-fab--product' : ''}" aria-label="Abrir carrito (0 artículos)" inert>${icon(24, ICONS.cart)}</button>` +
    `<button type="button" class="shop-fab shop-fab--assistant${onProductPage ? ' shop-fab--assistant-product' : ''}" aria-label="Abrir asistente virtual" aria-expanded="false" inert>${ASSISTANT_ICON}</button>`
  );
}

/** InfoBanner: address, phone and opening hours, whichever the store filled in. */
function infoBanner(store: FirstScreenStore): string {
  if (!store.address && !store.phone && !store.businessHours) return '';
  const items: string[] = [];
  if (store.address) items.push(`<li>${icon(18, ICONS.pin)}<span>${e(store.address)}</span></li>`);
  if (store.phone) items.push(`<li>${icon(18, ICONS.phone)}<a href="${e(`tel:${store.phone.replace(/[^\d+]/g, '')}`)}">${e(store.phone)}</a></li>`);
  if (store.businessHours) items.push(`<li>${icon(18, ICONS.clock)}<span>${e(store.businessHours)}</span></li>`);
  return `<section class="shop-info" aria-label="Información de la tienda"><ul>${items.join('')}</ul></section>`;
}

/** ProductSearch before anything is typed: the box and, when the store has categories, the filter (inert). */
function search(hasCategories: boolean): string {
  const category = hasCategories
    ? `<label class="shop-search__category"><span class="visually-hidden">Categoría</span><select><option value="" selected>Todas las categorías</option></select></label>`
    : '';
  return (
    `<form class="shop-search" role="search" inert><div class="shop-search__field"><label class="shop-search__box"><span class="visually-hidden">Buscar productos</span>${icon(20, ICONS.search)}` +
    `<input type="search" placeholder="Buscar productos…" enterkeyhint="search" autocomplete="off" aria-autocomplete="list" value="" /></label></div>${category}</form>`
  );
}

/** ProductCard: the picture is a link to the product's page (the app opens its dialog instead). */
function card(store: string, product: FirstScreenCard, index: number): string {
  const inStock = product.stock > 0;
  const image = productImage(product.imageUrl, '', CARD_IMAGE_WIDTH, { sizes: CARD_IMAGE_SIZES, priority: index < PRIORITY_CARD_IMAGES, className: 'shop-card__img' });
  return (
    `<li class="shop-card"><a class="shop-card__open" href="${e(productPath(store, product.id))}" aria-label="${e(`Ver ${product.name}`)}">${image}</a>` +
    `<div class="shop-card__body"><h3 class="shop-card__name">${e(product.name)}</h3>${price(product)}${stockBadge(product.stock)}` +
    `<button type="button" class="shop-button shop-button--primary shop-button--small"${inStock ? ' inert' : ' disabled'}>${inStock ? 'Agregar' : 'Agotado'}</button></div></li>`
  );
}

/** StorePage's first screen: info banner, search, the title with the count and the first cards. */
function storePage(store: FirstScreenStore, total: number, hasCategories: boolean, cards: FirstScreenCard[]): string {
  const count = `<span class="shop-muted"> · ${total === 1 ? '1 producto' : `${total} productos`}</span>`;
  // ShopMessages.noProducts of the shop when the store has none.
  const list =
    cards.length === 0
      ? `<div class="shop-empty"><p>No hay productos</p></div>`
      : `<ul class="shop-grid">${cards.map((c, i) => card(store.subdomain, c, i)).join('')}</ul>`;
  return (
    `<main class="shop-main">${infoBanner(store)}${search(hasCategories)}` +
    `<section aria-labelledby="${FIRST_SCREEN_ID}-title"><h2 id="${FIRST_SCREEN_ID}-title" class="shop-section-title">Productos${count}</h2>${list}</section></main>`
  );
}

/** Stars: five stars filled to a rating of 0 to 5. */
function stars(value: number): string {
  const label = `${formatDecimal(value, 1)} de 5 estrellas`;
  const star = (i: number) => {
    const fill = Math.min(Math.max(value - i, 0), 1) * 100;
    const id = `${FIRST_SCREEN_ID}-star-${i}`;
    return `<svg width="16" height="16" viewBox="0 0 24 24" aria-hidden="true" focusable="false"><defs><linearGradient id="${id}"><stop offset="${fill}%" stop-color="#f59e0b"></stop><stop offset="${fill}%" stop-color="#d1d5db"></stop></linearGradient></defs><path d="${STAR}" fill="url(#${id})"></path></svg>`;
  };
  return `<span class="shop-stars" role="img" aria-label="${e(label)}">${[0, 1, 2, 3, 4].map(star).join('')}</span>`;
}

/** Gallery: the main picture (the largest paint), and the arrows and thumbnails when there are more (inert). */
function gallery(images: string[], name: string): string {
  const count = images.length;
  const main = productImage(count > 0 ? images[0] : null, count > 1 ? `${name}, imagen 1 de ${count}` : name, GALLERY_IMAGE_WIDTH, { sizes: GALLERY_IMAGE_SIZES, priority: true });
  if (count <= 1) return `<div class="shop-gallery"><div class="shop-gallery__main">${main}</div></div>`;
  const arrows =
    `<button type="button" class="shop-gallery__arrow shop-gallery__arrow--prev" aria-label="Imagen anterior" inert>${icon(20, ICONS.chevronLeft)}</button>` +
    `<button type="button" class="shop-gallery__arrow shop-gallery__arrow--next" aria-label="Imagen siguiente" inert>${icon(20, ICONS.chevronRight)}</button>`;
  const thumbs = images
    .map(
      (src, i) =>
        `<li><button type="button"${i === 0 ? ' class="is-active"' : ''} aria-label="Ver imagen ${i + 1}"${i === 0 ? ' aria-current="true"' : ''} inert>${productImage(src, '', 160, {})}</button></li>`,
    )
    .join('');
  return `<div class="shop-gallery"><div class="shop-gallery__main">${main}${arrows}</div><ul class="shop-gallery__thumbs">${thumbs}</ul></div>`;
}

/** ProductPage with ProductDetail (variant page) down to the WhatsApp button; the reviews below come with the app. */
function productPage(store: FirstScreenStore, product: FirstScreenProduct, origin: string): string {
  const inStock = product.stock > 0;
  const qty = 1;
  const rating = `<p class="shop-detail__rating">${stars(product.averageRating)}<span>${
    product.totalRatings > 0
      ? e(`${formatDecimal(product.averageRating, 1)} (${product.totalRatings} ${product.totalRatings === 1 ? 'calificación' : 'calificaciones'})`)
      : 'Sin calificaciones'
  }</span></p>`;
  const picker = inStock
    ? `<div class="shop-qty" role="group" aria-label="Cantidad" inert><button type="button" disabled aria-label="Quitar uno">−</button><output aria-live="polite">${qty}</output><button type="button"${qty >= product.stock ? ' disabled' : ''} aria-label="Agregar uno">+</button></div>`
    : '';
  const chat = store.whatsappNumber
    ? whatsappLink(store.whatsappNumber, `Hola ${store.name}, me interesa el producto "${product.name}" (${formatQuetzales(product.finalPrice)}). ${origin}${productPath(store.subdomain, product.id)}`)
    : null;
  const whatsapp = chat ? `<a class="shop-button shop-button--whatsapp" href="${e(chat)}" target="_blank" rel="noopener noreferrer">${WHATSAPP_ICON}Consultar por WhatsApp</a>` : '';
  return (
    `<main class="shop-main"><nav class="shop-breadcrumb" aria-label="Ruta"><a href="${e(storeHomePath(store.subdomain))}">← Volver a la tienda</a></nav>` +
    `<article class="shop-detail shop-detail--page">${gallery(product.images, product.name)}<div class="shop-detail__info">` +
    (product.categoryName ? `<p class="shop-detail__category">${e(product.categoryName)}</p>` : '') +
    `<h1 class="shop-detail__name">${e(product.name)}</h1>${rating}${price(product, true)}` +
    `<div class="shop-detail__meta">${stockBadge(product.stock)}${product.sku ? `<span class="shop-muted">SKU: ${e(product.sku)}</span>` : ''}</div>` +
    (product.description ? `<p class="shop-detail__description">${e(product.description)}</p>` : '') +
    `<div class="shop-detail__buy">${picker}<button type="button" class="shop-button shop-button--primary"${inStock ? ' inert' : ' disabled'}>${inStock ? 'Agregar al carrito' : 'Agotado'}</button>` +
    `<button type="button" class="shop-button" inert>Ver carrito</button></div>${whatsapp}</div></article></main>`
  );
}

/**
 * The first screen of the shop or product page `target` shows, from its preview: null when the
 * preview has none (an older catalog), or when the product is not the path's store's (the shop
 * answers 'Producto no encontrado' there). `origin` is the site's public URL (the WhatsApp message
 * names the product's link). With `app`, the container carries the app's scripts (takeAppScripts).
 */
export function renderFirstScreen(preview: LinkPreview, target: PreviewTarget, origin: string, app?: DeferredApp): string | null {
  const screen = preview.firstScreen;
  if (!screen) return null;
  const vars = Object.entries(storeThemeVars(screen.store))
    .map(([name, value]) => `${name}:${value}`)
    .join(';');
  let body: string;
  if (screen.page === 'product') {
    if (target.kind !== 'product' || target.productId.toLowerCase() !== screen.product.id.toLowerCase() || target.store.toLowerCase() !== screen.store.subdomain) return null;
    body = header(screen.store, true) + productPage(screen.store, screen.product, origin.replace(/\/+$/, '')) + floatingButtons(true);
  } else {
    if (target.kind !== 'store') return null;
    body = header(screen.store, false) + storePage(screen.store, screen.total, screen.hasCategories, screen.cards) + floatingButtons(false);
  }
  const scripts = app ? ` data-app-entry="${e(app.entry)}" data-app-modules="${e(app.modules.join(' '))}"` : '';
  return `<div id="${FIRST_SCREEN_ID}"${scripts}><div class="shop" style="${e(vars)}">${body}</div></div>`;
}

/** index.html with the first screen before the app's root (the head's rule hides the root while it is there). */
export function injectFirstScreen(html: string, firstScreen: string): string {
  const root = /<div id="root">/i.exec(html);
  if (!root) return html;
  return html.slice(0, root.index) + firstScreen + html.slice(root.index);
}

/** The app's scripts a first screen's page runs once that screen has painted (public/shop-boot.js). */
export interface DeferredApp {
  /** Vite's entry (the module to run). */
  entry: string;
  /** What the entry imports, and the shop chunk with its imports: fetched all at once. */
  modules: string[];
}

/** Vite's entry script and its modulepreloads in index.html. */
const ENTRY_SCRIPT = /\s*<script type="module" crossorigin src="([^"]+)"><\/script>/;
const MODULE_PRELOAD = /\s*<link rel="modulepreload" crossorigin href="([^"]+)">/g;

/**
 * index.html without the app's scripts (the entry and its modulepreloads), and those scripts, for
 * a page with the first screen: public/shop-boot.js asks for them and runs the entry once the first
 * screen's main pictures have painted. On a phone's network the app's JavaScript (some 150 KB)
 * would otherwise share the line with those pictures and its run hold up their paint, and the first
 * screen needs none of it. Null when the page has no shop-boot.js to start the app or the entry is
 * not where Vite writes it: the page then keeps its scripts and the app starts as on any page.
 */
export function takeAppScripts(html: string): { html: string; app: DeferredApp } | null {
  const entry = ENTRY_SCRIPT.exec(html);
  if (!entry || !html.includes('src="/shop-boot.js"')) return null;
  const modules: string[] = [];
  const rest = html.replace(ENTRY_SCRIPT, '').replace(MODULE_PRELOAD, (_link, href: string) => {
    modules.push(href);
    return '';
  });
  return { html: rest, app: { entry: entry[1], modules } };
}
