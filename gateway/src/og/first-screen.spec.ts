import { FIRST_SCREEN_STYLE, injectFirstScreen, renderFirstScreen, takeAppScripts } from './first-screen';
import type { LinkPreview } from './link-previews';

const store = {
  name: 'Tienda <Demo> & "Hijos"',
  subdomain: 'demo',
  description: 'Abarrotes <b>baratos</b>',
  logoUrl: null,
  primaryColor: '#0ea5e9',
  secondaryColor: '#0284c7',
  accentColor: 'no-es-color',
  address: '6a avenida 10-25',
  phone: '2222-3333',
  businessHours: null,
  whatsappNumber: '55555555',
};

const card = (n: number, extra: Partial<{ price: number; finalPrice: number; discountPercentage: number; stock: number; imageUrl: string | null; name: string }> = {}) => ({
  id: `00000000-0000-4000-8000-00000000000${n}`,
  name: `Producto ${n}`,
  price: 10,
  finalPrice: 10,
  discountPercentage: 0,
  stock: 20,
  imageUrl: `/temp-uploads/products/p${n}.png`,
  ...extra,
});

const shopPreview: LinkPreview = {
  title: store.name,
  description: store.description,
  image: null,
  type: 'website',
  storeName: store.name,
  storeSubdomain: 'demo',
  firstScreen: {
    page: 'store',
    store,
    total: 12,
    hasCategories: true,
    cards: [
      card(1, { name: 'Café <Antigua> "1 lb"', price: 75, finalPrice: 67.5, discountPercentage: 10 }),
      card(2, { stock: 1 }),
      card(3, { imageUrl: null, stock: 0 }),
      card(4, { imageUrl: 'https://cdn.example/x.jpg?a=1&b=2' }),
    ],
  },
};

const productPreview: LinkPreview = {
  title: 'Miel <pura>',
  description: 'De Sololá',
  image: '/objects/miel.webp',
  type: 'product',
  storeName: store.name,
  storeSubdomain: 'demo',
  price: 45,
  finalPrice: 45,
  discountPercentage: 0,
  firstScreen: {
    page: 'product',
    store,
    product: {
      id: '11111111-1111-4111-8111-111111111111',
      name: 'Miel <pura>',
      description: 'De Sololá & alrededores',
      sku: 'MIE-001',
      categoryName: 'Dulces',
      price: 45,
      finalPrice: 45,
      discountPercentage: 0,
      stock: 3,
      images: ['/objects/miel.webp', '/objects/miel-2.webp'],
      averageRating: 4.5,
      totalRatings: 2,
    },
  },
};

const shopTarget = { kind: 'store', store: 'demo' } as const;
const productTarget = { kind: 'product', store: 'demo', productId: '11111111-1111-4111-8111-111111111111' } as const;

describe("a shop page's first screen in the HTML", () => {
  const html = renderFirstScreen(shopPreview, shopTarget, 'https://tiendita.gt') as string;

  it('is one container with the store colours (made readable, defaults for an invalid one)', () => {
    expect(html.startsWith('<div id="shop-first-screen"><div class="shop" style="--shop-primary:#0877a9;--shop-secondary:#0076b3;--shop-accent:#dc2626">')).toBe(true);
    expect(html.endsWith('</div></div>')).toBe(true);
  });

  it('escapes every text and attribute taken from the store and its products', () => {
    expect(html).not.toMatch(/<(Demo|Antigua|b)>/);
    expect(html).toContain('<h1 class="shop-header__name">Tienda &lt;Demo&gt; &amp; &quot;Hijos&quot;</h1>');
    expect(html).toContain('<span class="shop-header__description">Abarrotes &lt;b&gt;baratos&lt;/b&gt;</span>');
    expect(html).toContain('aria-label="Ver Café &lt;Antigua&gt; &quot;1 lb&quot;"');
    expect(html).toContain('src="https://cdn.example/x.jpg?a=1&amp;b=2"');
  });

  it('has the header, the info banner, the search with the category filter and the title with the count, as the shop', () => {
    expect(html).toContain('<a class="shop-header__brand" href="/tienda/demo"><span class="shop-logo shop-logo--initial" style="width:56px;height:56px" aria-hidden="true">T</span>');
    expect(html).toContain('<section class="shop-info" aria-label="Información de la tienda"><ul><li>');
    expect(html).toContain('<a href="tel:22223333">2222-3333</a>');
    expect(html).toContain('<option value="" selected>Todas las categorías</option>');
    expect(html).toContain('Productos<span class="shop-muted"> · 12 productos</span></h2>');
    // What needs the app does nothing until it takes over.
    expect(html).toContain('<div class="shop-header__actions" inert>');
    expect(html).toContain('<form class="shop-search" role="search" inert>');
  });

  it('shows the cards in their order, each picture a link to its page, with the srcset and sizes of the shop and high priority for the first two', () => {
    const cards = [...html.matchAll(/<li class="shop-card"><a class="shop-card__open" href="([^"]+)"[^>]*>(<img [^>]+>|<div [^>]+>)/g)];
    expect(cards.map((m) => m[1])).toEqual([1, 2, 3, 4].map((n) => `/demo/product/00000000-0000-4000-8000-00000000000${n}`));
    const p1 = '/temp-uploads/products/p1.png';
    expect(cards[0][2]).toBe(
      `<img class="shop-img shop-card__img" src="${p1}?w=320" srcset="${p1}?w=160 160w, ${p1}?w=320 320w, ${p1}?w=400 400w, ${p1}?w=640 640w" sizes="(min-width: 960px) 270px, (min-width: 640px) 31vw, 46vw" alt="" width="320" height="320" loading="eager" fetchpriority="high" decoding="async" />`,
    );
    expect(cards[1][2]).toContain('fetchpriority="high"');
    expect(cards[2][2]).toBe('<div class="shop-img shop-img--empty shop-card__img" role="img" aria-label=" (sin imagen)">');
    expect(cards[3][2]).not.toContain('fetchpriority');
    expect(cards[3][2]).not.toContain('srcset');
  });

  it('writes prices, discount, stock and the add button as the card does', () => {
    expect(html).toMatch(/<p class="shop-price"><span class="shop-price__final">Q\s?67\.50<\/span><s class="shop-price__list"><span class="visually-hidden">Antes <\/span>Q\s?75\.00<\/s><span class="shop-price__off">-10%<\/span><\/p>/);
    expect(html).toContain('<span class="shop-stock shop-stock--high">En stock</span>');
    expect(html).toContain('<span class="shop-stock shop-stock--low">¡Última unidad!</span>');
    expect(html).toContain('<button type="button" class="shop-button shop-button--primary shop-button--small" inert>Agregar</button>');
    expect(html).toContain('<button type="button" class="shop-button shop-button--primary shop-button--small" disabled>Agotado</button>');
  });

  it('a store without products, categories or contact data: the empty state, no filter, no banner', () => {
    const empty = renderFirstScreen(
      { ...shopPreview, firstScreen: { page: 'store', store: { ...store, address: null, phone: null }, total: 0, hasCategories: false, cards: [] } },
      shopTarget,
      'https://tiendita.gt',
    ) as string;
    expect(empty).toContain('<div class="shop-empty"><p>No hay productos</p></div>');
    expect(empty).toContain('Productos<span class="shop-muted"> · 0 productos</span>');
    expect(empty).not.toContain('shop-search__category');
    expect(empty).not.toContain('shop-info');
  });
});

describe("a product page's first screen in the HTML", () => {
  const html = renderFirstScreen(productPreview, productTarget, 'https://tiendita.gt/') as string;

  it('has the compact header, the way back, the main picture at the gallery size with high priority and the thumbnails', () => {
    expect(html).toContain('<header class="shop-header shop-header--compact">');
    expect(html).toContain('<p class="shop-header__name">Tienda &lt;Demo&gt; &amp; &quot;Hijos&quot;</p>');
    expect(html).not.toContain('shop-header__description');
    expect(html).toContain('<nav class="shop-breadcrumb" aria-label="Ruta"><a href="/tienda/demo">← Volver a la tienda</a></nav>');
    expect(html).toContain(
      '<img class="shop-img " src="/objects/miel.webp?w=640" srcset="/objects/miel.webp?w=320 320w, /objects/miel.webp?w=400 400w, /objects/miel.webp?w=640 640w, /objects/miel.webp?w=800 800w, /objects/miel.webp?w=1200 1200w" sizes="(min-width: 768px) 540px, 100vw" alt="Miel &lt;pura&gt;, imagen 1 de 2" width="640" height="640" loading="eager" fetchpriority="high" decoding="async" />',
    );
    expect([...html.matchAll(/<li><button type="button"[^>]*><img class="shop-img " src="([^"]+)"/g)].map((m) => m[1])).toEqual(['/objects/miel.webp?w=160', '/objects/miel-2.webp?w=160']);
  });

  it('has the category, the name, the rating, the price, the stock, the SKU, the description, the buttons and the WhatsApp link', () => {
    expect(html).toContain('<p class="shop-detail__category">Dulces</p><h1 class="shop-detail__name">Miel &lt;pura&gt;</h1>');
    expect(html).toContain('<span class="shop-stars" role="img" aria-label="4.5 de 5 estrellas">');
    expect(html).toContain('<span>4.5 (2 calificaciones)</span>');
    expect(html).toMatch(/<p class="shop-price shop-price--large"><span class="shop-price__final">Q\s?45\.00<\/span><\/p>/);
    expect(html).toContain('<span class="shop-stock shop-stock--low">Solo quedan 3</span><span class="shop-muted">SKU: MIE-001</span>');
    expect(html).toContain('<p class="shop-detail__description">De Sololá &amp; alrededores</p>');
    expect(html).toContain('<button type="button" class="shop-button shop-button--primary" inert>Agregar al carrito</button>');
    const whatsapp = /<a class="shop-button shop-button--whatsapp" href="([^"]+)"/.exec(html)?.[1] ?? '';
    expect(whatsapp.startsWith('https://wa.me/50255555555?text=')).toBe(true);
    expect(decodeURIComponent(whatsapp.replace(/&amp;/g, '&').split('text=')[1])).toMatch(
      /^Hola Tienda <Demo> & "Hijos", me interesa el producto "Miel <pura>" \(Q\s?45\.00\)\. https:\/\/tiendita\.gt\/demo\/product\/11111111-1111-4111-8111-111111111111$/,
    );
  });

  it("is left out when the path's store is not the product's, or the preview has no first screen", () => {
    expect(renderFirstScreen(productPreview, { ...productTarget, store: 'otra' }, 'https://tiendita.gt')).toBeNull();
    expect(renderFirstScreen({ ...productPreview, firstScreen: undefined }, productTarget, 'https://tiendita.gt')).toBeNull();
    expect(renderFirstScreen({ ...shopPreview, firstScreen: undefined }, shopTarget, 'https://tiendita.gt')).toBeNull();
  });
});

describe('the first screen in index.html', () => {
  it('goes right before the root; a page without a root is left as it is', () => {
    const page = injectFirstScreen('<html><head></head><body><div id="root"></div><script src="/x.js"></script></body></html>', '<div id="shop-first-screen">X</div>');
    expect(page).toBe('<html><head></head><body><div id="shop-first-screen">X</div><div id="root"></div><script src="/x.js"></script></body></html>');
    expect(injectFirstScreen('<html><body></body></html>', '<div id="shop-first-screen">X</div>')).toBe('<html><body></body></html>');
  });

  it('the head rule hides the root while the first screen is in the page', () => {
    expect(FIRST_SCREEN_STYLE).toBe('<style>#shop-first-screen ~ #root{display:none}</style>');
  });
});

describe("the app's scripts of a page with the first screen", () => {
  const index = [
    '<html><head>',
    '    <script type="module" crossorigin src="/assets/index-E1.js"></script>',
    '    <link rel="modulepreload" crossorigin href="/assets/react-R1.js">',
    '    <link rel="modulepreload" crossorigin href="/assets/query-Q1.js">',
    '    <link rel="stylesheet" crossorigin href="/assets/index-C1.css">',
    '  </head><body><div id="root"></div><script src="/shop-boot.js" async></script></body></html>',
  ].join('\n');

  it('leave the head (the stylesheet stays) and go on the container, for shop-boot.js to run once the first screen has painted', () => {
    const taken = takeAppScripts(index);
    expect(taken?.app).toEqual({ entry: '/assets/index-E1.js', modules: ['/assets/react-R1.js', '/assets/query-Q1.js'] });
    expect(taken?.html).toBe(
      '<html><head>\n    <link rel="stylesheet" crossorigin href="/assets/index-C1.css">\n  </head><body><div id="root"></div><script src="/shop-boot.js" async></script></body></html>',
    );
    const html = renderFirstScreen(shopPreview, shopTarget, 'https://tiendita.gt', { entry: '/assets/index-E1.js', modules: ['/assets/react-R1.js', '/assets/shop-app-S1.js'] }) as string;
    expect(html.startsWith('<div id="shop-first-screen" data-app-entry="/assets/index-E1.js" data-app-modules="/assets/react-R1.js /assets/shop-app-S1.js"><div class="shop"')).toBe(true);
  });

  it('stay where they are when nothing would start the app (no shop-boot.js) or the entry is not where Vite writes it', () => {
    expect(takeAppScripts(index.replace('<script src="/shop-boot.js" async></script>', ''))).toBeNull();
    expect(takeAppScripts(index.replace('type="module" crossorigin src=', 'type="module" src='))).toBeNull();
  });
});
