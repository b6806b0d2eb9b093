import { CARD_IMAGE_SIZES, CARD_IMAGE_WIDTH, GALLERY_IMAGE_SIZES, GALLERY_IMAGE_WIDTH, imageSrcSet, imageVariant, type ImageWidth, PRIORITY_CARD_IMAGES } from '@tiendita/contracts';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { escapeHtml, type LinkPreview } from './link-previews';

/** One chunk of Vite's build manifest (web/dist/.vite/manifest.json). */
interface ManifestChunk {
  file: string;
  isEntry?: boolean;
  imports?: string[];
  css?: string[];
}
export type ViteManifest = Record<string, ManifestChunk>;

/** The shop's lazy chunk in the manifest (web/src/shop/shop-app.tsx). */
export const SHOP_CHUNK = 'src/shop/shop-app.tsx';

/**
 * What the shop's chunk needs that index.html does not load already: its JavaScript (with the
 * chunks it imports) and its stylesheets, as paths of the site. Empty when the build has no shop chunk.
 */
export function shopChunkFiles(manifest: ViteManifest): { scripts: string[]; styles: string[] } {
  const loaded = new Set<string>();
  const closure = (key: string, into: Set<string>): void => {
    if (into.has(key) || !manifest[key]) return;
    into.add(key);
    for (const next of manifest[key].imports ?? []) closure(next, into);
  };
  for (const [key, chunk] of Object.entries(manifest)) if (chunk.isEntry) closure(key, loaded);
  const shop = new Set<string>();
  closure(SHOP_CHUNK, shop);
  const scripts: string[] = [];
  const styles: string[] = [];
  for (const key of shop) {
    if (loaded.has(key)) continue; // index.html loads it (and its stylesheets) already
    const chunk = manifest[key];
    scripts.push(`/${chunk.file}`);
    for (const css of chunk.css ?? []) if (!styles.includes(`/${css}`)) styles.push(`/${css}`);
  }
  return { scripts, styles };
}

function imagePreload(url: string, width: ImageWidth, sizes: string): string {
  const srcset = imageSrcSet(url, width);
  const variants = srcset ? ` imagesrcset="${escapeHtml(srcset)}" imagesizes="${escapeHtml(sizes)}"` : '';
  return `<link rel="preload" as="image" href="${escapeHtml(imageVariant(url, width))}"${variants} fetchpriority="high" />`;
}

/**
 * The <head> tags that let a phone fetch a shop page's first screen in parallel with the app's entry
 * instead of one step after another (entry → shop chunk → its stylesheet → the products' answer →
 * the first pictures): the shop chunk as modulepreload, its stylesheet, and the pictures of the first
 * cards (a shop) or the main picture (a product page), with the srcset and sizes the shop's <img>
 * uses, so the browser picks the same variant. The app adopts them (Vite skips a stylesheet that is
 * there, the shop skips an image already preloaded).
 */
export function renderShopHints(files: { scripts: string[]; styles: string[] }, preview: LinkPreview): string {
  const tags: string[] = [];
  for (const style of files.styles) tags.push(`<link rel="stylesheet" crossorigin href="${escapeHtml(style)}" />`);
  for (const script of files.scripts) tags.push(`<link rel="modulepreload" crossorigin href="${escapeHtml(script)}" />`);
  if (preview.type === 'product') {
    if (preview.image) tags.push(imagePreload(preview.image, GALLERY_IMAGE_WIDTH, GALLERY_IMAGE_SIZES));
  } else {
    for (const image of (preview.cardImages ?? []).slice(0, PRIORITY_CARD_IMAGES)) tags.push(imagePreload(image, CARD_IMAGE_WIDTH, CARD_IMAGE_SIZES));
  }
  return tags.join('\n    ');
}

/** The shop chunk's files of the web build in `distDir`, read again whenever its manifest changes. */
export class ShopAssets {
  private cached: { mtimeMs: number; files: { scripts: string[]; styles: string[] } } | null = null;

  constructor(private readonly distDir: string) {}

  files(): { scripts: string[]; styles: string[] } {
    const file = join(this.distDir, '.vite', 'manifest.json');
    try {
      const { mtimeMs } = statSync(file);
      if (this.cached?.mtimeMs !== mtimeMs) this.cached = { mtimeMs, files: shopChunkFiles(JSON.parse(readFileSync(file, 'utf8')) as ViteManifest) };
      return this.cached.files;
    } catch {
      return { scripts: [], styles: [] }; // no build or no manifest: the app loads its chunk itself
    }
  }
}
