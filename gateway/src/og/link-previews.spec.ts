import { injectPreview, type LinkPreview, previewTarget, renderPreview } from './link-previews';

describe('link preview targets (spec 001 §2 shop routes)', () => {
  it('reads /tienda/{name}, /{subdomain}, /{store}/product/{id} and ?store=', () => {
    expect(previewTarget('/tienda/demo')).toEqual({ kind: 'store', store: 'demo' });
    expect(previewTarget('/mi-tienda')).toEqual({ kind: 'store', store: 'mi-tienda' });
    expect(previewTarget('/mi-tienda/product/abc?x=1')).toEqual({ kind: 'product', store: 'mi-tienda', productId: 'abc' });
    expect(previewTarget('/?store=demo&showCart=true')).toEqual({ kind: 'store', store: 'demo' });
  });
  it('leaves owner screens and other pages alone', () => {
    for (const url of ['/', '/products', '/dashboard', '/login', '/settings', '/Mayusculas', '/a/b', '/products/product/x']) expect(previewTarget(url)).toBeNull();
  });
});

const product: LinkPreview = {
  title: 'Café <Antigua> "1 lb"',
  description: 'Tostado & molido',
  image: '/temp-uploads/products/a.png',
  type: 'product',
  storeName: 'Tienda Demo',
  storeSubdomain: 'demo',
  price: 75,
  finalPrice: 67.5,
  discountPercentage: 10,
};

describe('Open Graph tags', () => {
  it('writes title, description with the price, an absolute image, the type and the price, escaped', () => {
    const { title, tags } = renderPreview(product, 'https://tiendita.gt', '/demo/product/1');
    expect(title).toBe('Café &lt;Antigua&gt; &quot;1 lb&quot; · Tienda Demo');
    expect(tags).toContain('<meta property="og:type" content="product" />');
    expect(tags).toContain('<meta property="og:image" content="https://tiendita.gt/temp-uploads/products/a.png" />');
    expect(tags).toContain('<meta property="og:url" content="https://tiendita.gt/demo/product/1" />');
    expect(tags).toContain('<meta property="product:price:amount" content="67.50" />');
    expect(tags).toContain('<meta property="product:price:currency" content="GTQ" />');
    expect(tags).toMatch(/<meta property="og:description" content="Q\s?67\.50 \(antes Q\s?75\.00\) · Tostado &amp; molido" \/>/);
    expect(tags).not.toContain('<Antigua>');
  });
  it('replaces the title and description of index.html and adds the tags to its head', () => {
    const html = '<html><head><meta name="description" content="genérica" /><title>Tiendita</title></head><body></body></html>';
    const out = injectPreview(html, renderPreview({ ...product, type: 'website', title: 'Tienda Demo', image: null }, 'http://x', '/demo'));
    expect(out).toContain('<title>Tienda Demo</title>');
    expect(out).not.toContain('genérica');
    expect(out).toContain('<meta property="og:type" content="website" />');
    expect(out).not.toContain('og:image');
    expect(out.indexOf('og:title')).toBeLessThan(out.indexOf('</head>'));
  });
});
