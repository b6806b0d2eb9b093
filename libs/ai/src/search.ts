import type { SearchIntent } from '@tiendita/contracts';
import { fold, quetzales } from './text';

/** One active product as the search sees it. `payload` is what a suggestion returns (opaque here). */
export interface SearchDoc<P = unknown> {
  id: string;
  name: string;
  description?: string | null;
  categoryName?: string | null;
  sku?: string | null;
  /** The final price (after discount), in centavos: price phrases compare with it. */
  finalPriceCentavos: number;
  payload: P;
}

/** A price condition read from the query ('menos de 50', 'entre Q20 y Q40', 'barato'). Centavos. */
export interface PriceFilter {
  min?: number;
  max?: number;
  /** 'barato' / 'caro': the cheaper or dearer third of the matches, cheapest (dearest) first. */
  band?: 'cheap' | 'expensive';
  /** How it reads, for enhancedTerms ('menos de Q50.00'). */
  label: string;
}

export interface SearchResult<P> {
  intent: SearchIntent;
  enhancedTerms: string[];
  hits: SearchDoc<P>[];
  price: PriceFilter | null;
}

const STOPWORDS = new Set(
  ('de del la las el los un una unos unas y o u para con sin en por a al que me mi mis tu tus su sus se lo le les es son como quiero quisiera busco buscando ' +
    'necesito ocupo tienen tiene tienes hay algo algun alguna alguno venden vende precio precios q gtq quetzales producto productos cosa cosas ver muestrame dame favor ' +
    'porfa hola buenas buen buenos dias tardes noches donde cual cuales cuanto cuesta cuestan este esta estos estas ese esa eso muy mas').split(' '),
);

const NUM = String.raw`q?\s*(\d+(?:[.,]\d{1,2})?)`;
const RANGE_PATTERNS: [RegExp, (a: number, b?: number) => Omit<PriceFilter, 'label'>][] = [
  [new RegExp(String.raw`\bentre\s+${NUM}\s+(?:y|a|-)\s+${NUM}`), (a, b) => ({ min: Math.min(a, b!), max: Math.max(a, b!) })],
  [new RegExp(String.raw`\bde\s+${NUM}\s+(?:a|-)\s+${NUM}`), (a, b) => ({ min: Math.min(a, b!), max: Math.max(a, b!) })],
  [new RegExp(String.raw`\b${NUM}\s*(?:-|a)\s*${NUM}\b`), (a, b) => ({ min: Math.min(a, b!), max: Math.max(a, b!) })],
  [new RegExp(String.raw`(?:\bmenos\s+de|\bmenor(?:es)?\s+(?:a|de|que)|\bhasta|\bmaximo(?:\s+de)?|\bmax|\bbajo|\bpor\s+debajo\s+de|\bdebajo\s+de|\bno\s+mas\s+de|\binferior(?:es)?\s+a|\bque\s+no\s+pase\s+de|<=?)\s*${NUM}`), (a) => ({ max: a })],
  [new RegExp(String.raw`(?:\bmas\s+de|\bmayor(?:es)?\s+(?:a|de|que)|\bdesde|\bminimo(?:\s+de)?|\barriba\s+de|\bpor\s+encima\s+de|\bencima\s+de|\bsuperior(?:es)?\s+a|>=?)\s*${NUM}`), (a) => ({ min: a })],
];
const CHEAP = /\b(?:barat[oa]s?|economic[oa]s?|bajo\s+precio|precio\s+bajo|accesibles?|low\s+cost)\b/;
const EXPENSIVE = /\b(?:car[oa]s?|premium|de\s+lujo|lujos[oa]s?|alta\s+gama)\b/;

const toCentavos = (text: string) => Math.round(Number(text.replace(',', '.')) * 100);

/** Reads a price condition out of a folded query; answers it and the query without it. */
export function extractPrice(folded: string): { price: PriceFilter | null; rest: string } {
  let rest = folded;
  let filter: Omit<PriceFilter, 'label'> | null = null;
  for (const [re, make] of RANGE_PATTERNS) {
    const m = re.exec(rest);
    if (!m) continue;
    filter = make(toCentavos(m[1]) / 100, m[2] !== undefined ? toCentavos(m[2]) / 100 : undefined);
    rest = rest.replace(m[0], ' ');
    break;
  }
  let band: PriceFilter['band'];
  const cheap = CHEAP.exec(rest);
  if (cheap) {
    band = 'cheap';
    rest = rest.replace(cheap[0], ' ');
  } else {
    const dear = EXPENSIVE.exec(rest);
    if (dear) {
      band = 'expensive';
      rest = rest.replace(dear[0], ' ');
    }
  }
  if (!filter && !band) return { price: null, rest: folded };
  const min = filter?.min !== undefined ? Math.round(filter.min * 100) : undefined;
  const max = filter?.max !== undefined ? Math.round(filter.max * 100) : undefined;
  const label =
    min !== undefined && max !== undefined
      ? `entre ${quetzales(min / 100)} y ${quetzales(max / 100)}`
      : max !== undefined
        ? `hasta ${quetzales(max / 100)}`
        : min !== undefined
          ? `desde ${quetzales(min / 100)}`
          : band === 'cheap'
            ? 'precio bajo'
            : 'precio alto';
  return { price: { min, max, band, label }, rest };
}

/**
 * A light Spanish stem: singular and plural meet ('martillos' → 'martillo', 'pinceles' → 'pincel',
 * 'luces' → 'luz', 'cables' and 'cable' → 'cabl'). Only used to compare, never shown.
 */
export function stem(word: string): string {
  if (word.length <= 3 || /^\d/.test(word)) return word;
  if (word.endsWith('ces')) return `${word.slice(0, -3)}z`;
  if (word.endsWith('ce')) return `${word.slice(0, -2)}z`;
  let w = word.endsWith('s') ? word.slice(0, -1) : word;
  if (w.length > 3 && w.endsWith('e') && !/[aeiou]/.test(w[w.length - 2])) w = w.slice(0, -1);
  return w;
}

// Three rows of the edit-distance table, kept between calls: a typo check allocates nothing.
let rowA = new Int32Array(64);
let rowB = new Int32Array(64);
let rowC = new Int32Array(64);

/** Edit distance with transpositions, giving up above `max` (answers max + 1 then). */
export function editDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  const m = b.length;
  if (rowA.length <= m) {
    rowA = new Int32Array(m + 1);
    rowB = new Int32Array(m + 1);
    rowC = new Int32Array(m + 1);
  }
  let prev2 = rowA;
  let prev = rowB;
  let cur = rowC;
  for (let j = 0; j <= m; j++) prev[j] = j;
  for (let i = 1; i <= a.length; i++) {
    cur[0] = i;
    let rowMin = i;
    const ai = a.charCodeAt(i - 1);
    for (let j = 1; j <= m; j++) {
      const bj = b.charCodeAt(j - 1);
      let v = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (ai === bj ? 0 : 1));
      if (i > 1 && j > 1 && ai === b.charCodeAt(j - 2) && a.charCodeAt(i - 2) === bj) v = Math.min(v, prev2[j - 2] + 1);
      cur[j] = v;
      if (v < rowMin) rowMin = v;
    }
    if (rowMin > max) return max + 1;
    const t = prev2;
    prev2 = prev;
    prev = cur;
    cur = t;
  }
  return prev[m];
}

/** Fields in weight order: a product's best field for a term is the one with the lowest code. */
const FIELDS = ['name', 'sku', 'category', 'description'] as const;
type Field = (typeof FIELDS)[number];
const FIELD_WEIGHT: Record<Field, number> = { name: 3, sku: 3, category: 2, description: 1 };
const WEIGHT_OF_CODE = FIELDS.map((f) => FIELD_WEIGHT[f]);
const NAME = 0;

/** The query's words: folded, without stopwords. */
function queryWords(text: string): string[] {
  return text.split(/[^a-z0-9ñ]+/).filter((w) => w && !STOPWORDS.has(w) && !(w.length < 2));
}

/** Words with a digit (sizes, model numbers, SKUs) match exactly: never by prefix or typo. */
const HAS_DIGIT = /\d/;

/** The distinct trigrams of a word, padded ('^ma', 'mar', …, 'lo$'), for typo candidates. */
function trigrams(word: string): string[] {
  const padded = `^${word}$`;
  const out = new Set<string>();
  for (let i = 0; i + 3 <= padded.length; i++) out.add(padded.slice(i, i + 3));
  return [...out];
}

/**
 * A key that sorts like Spanish collation for ties (accents and case ignored, ñ after n): a plain
 * string comparison of it costs nothing next to Intl.Collator on thousands of candidates.
 */
function sortKey(name: string): string {
  return fold(name).replace(/ñ/g, 'n\u007f');
}

const stems = new Map<string, string>();
/** The stem of a lowercased word of a product ('' for a stopword), remembered: catalogues repeat their words. */
function stemOf(word: string, keepStopwords: boolean): string {
  let s = stems.get(word);
  if (s === undefined) {
    const folded = fold(word);
    s = folded && !STOPWORDS.has(folded) ? stem(folded) : '';
    if (stems.size >= 100_000) stems.clear();
    stems.set(word, s);
  }
  return s || (keepStopwords ? fold(word) : '');
}

interface Term {
  text: string;
  /** A readable form (first seen, with its accents), for enhancedTerms. */
  display: string;
  /** Product slot → the code (index in FIELDS) of the best field it appears in. */
  postings: Map<number, number>;
  /** Kept in the prefix and trigram tables (no digit in it). */
  fuzzy: boolean;
}

interface Slot<P> {
  doc: SearchDoc<P>;
  foldedName: string;
  key: string;
  terms: Term[];
  categoryKey: string | null;
}

interface Category {
  stems: string[];
  name: string;
  products: number;
}

/**
 * An in-memory search over one store's active products: accents and case ignored, plurals and
 * typos tolerated, names weigh more than categories, categories more than descriptions, and
 * price phrases filter on the final price.
 *
 * Kept current product by product (upsert, remove) rather than rebuilt. A query touches only the
 * postings of the terms it matches: exact terms by hash, the last word's completions through a
 * table of 3-letter prefixes, typos through a trigram table checked with an edit distance. Words
 * with digits are left out of both tables, so thousands of sizes, model numbers and SKUs cost
 * nothing to a query. The best `limit` hits are picked without sorting every match.
 */
export class SearchIndex<P = unknown> {
  private readonly terms = new Map<string, Term>();
  private readonly slots: (Slot<P> | null)[] = [];
  private readonly freeSlots: number[] = [];
  private readonly slotOf = new Map<string, number>();
  /** First three letters → terms that start with them (for the word being typed). */
  private readonly prefixes = new Map<string, Set<Term>>();
  /** Trigram → terms that contain it (for typos). */
  private readonly grams = new Map<string, Set<Term>>();
  /** Folded category name → its words and how many products have it. */
  private readonly categories = new Map<string, Category>();
  // Per-query scratch, reused (a search is synchronous): indexed by slot.
  private scores = new Float64Array(0);
  private covered = new Uint8Array(0);
  private nameHits = new Uint8Array(0);
  private best = new Float64Array(0);

  constructor(docs: Iterable<SearchDoc<P>> = []) {
    for (const doc of docs) this.upsert(doc);
  }

  /** Active products in the index. */
  get size(): number {
    return this.slotOf.size;
  }

  /** Distinct terms in the index (for diagnostics). */
  get termCount(): number {
    return this.terms.size;
  }

  has(id: string): boolean {
    return this.slotOf.has(id);
  }

  get(id: string): SearchDoc<P> | undefined {
    const slot = this.slotOf.get(id);
    return slot === undefined ? undefined : this.slots[slot]!.doc;
  }

  /** Adds a product, or replaces the one with the same id. */
  upsert(doc: SearchDoc<P>): void {
    this.remove(doc.id);
    const slot = this.freeSlots.pop() ?? this.slots.length;
    const entry: Slot<P> = { doc, foldedName: fold(doc.name), key: sortKey(doc.name), terms: [], categoryKey: null };
    this.slots[slot] = entry;
    this.slotOf.set(doc.id, slot);
    if (this.scores.length < this.slots.length) this.grow();
    this.addField(slot, entry, 0, doc.name);
    if (doc.sku) this.addField(slot, entry, 1, doc.sku);
    if (doc.categoryName) {
      this.addField(slot, entry, 2, doc.categoryName);
      const key = fold(doc.categoryName);
      entry.categoryKey = key;
      const category = this.categories.get(key);
      if (category) category.products++;
      else this.categories.set(key, { stems: queryWords(key).map(stem), name: doc.categoryName, products: 1 });
    }
    if (doc.description) this.addField(slot, entry, 3, doc.description);
  }

  /** Takes a product out (deleted, deactivated, or about to be replaced). */
  remove(id: string): boolean {
    const slot = this.slotOf.get(id);
    if (slot === undefined) return false;
    const entry = this.slots[slot]!;
    for (const term of entry.terms) {
      term.postings.delete(slot);
      if (term.postings.size === 0) this.dropTerm(term);
    }
    if (entry.categoryKey !== null) {
      const category = this.categories.get(entry.categoryKey)!;
      if (--category.products === 0) this.categories.delete(entry.categoryKey);
    }
    this.slots[slot] = null;
    this.freeSlots.push(slot);
    this.slotOf.delete(id);
    return true;
  }

  private grow(): void {
    const n = Math.max(64, this.slots.length * 2);
    const scores = new Float64Array(n);
    scores.set(this.scores);
    this.scores = scores;
    this.covered = new Uint8Array(n);
    this.nameHits = new Uint8Array(n);
    this.best = new Float64Array(n);
  }

  private addField(slot: number, entry: Slot<P>, code: number, text: string): void {
    const originals = text.toLowerCase().split(/[^\p{L}\p{N}]+/u);
    for (const original of originals) {
      if (!original) continue;
      const s = stemOf(original, FIELDS[code] === 'sku');
      if (!s) continue;
      let term = this.terms.get(s);
      if (!term) term = this.addTerm(s, original);
      const had = term.postings.get(slot);
      if (had === undefined) {
        term.postings.set(slot, code);
        entry.terms.push(term);
      } else if (code < had) term.postings.set(slot, code);
    }
  }

  private addTerm(text: string, display: string): Term {
    const term: Term = { text, display, postings: new Map(), fuzzy: !HAS_DIGIT.test(text) };
    this.terms.set(text, term);
    if (term.fuzzy) {
      if (text.length >= 4) {
        const p = text.slice(0, 3);
        let set = this.prefixes.get(p);
        if (!set) this.prefixes.set(p, (set = new Set()));
        set.add(term);
      }
      for (const g of trigrams(text)) {
        let set = this.grams.get(g);
        if (!set) this.grams.set(g, (set = new Set()));
        set.add(term);
      }
    }
    return term;
  }

  private dropTerm(term: Term): void {
    this.terms.delete(term.text);
    if (!term.fuzzy) return;
    if (term.text.length >= 4) {
      const p = term.text.slice(0, 3);
      const set = this.prefixes.get(p);
      set?.delete(term);
      if (set?.size === 0) this.prefixes.delete(p);
    }
    for (const g of trigrams(term.text)) {
      const set = this.grams.get(g);
      set?.delete(term);
      if (set?.size === 0) this.grams.delete(g);
    }
  }

  /** Index terms that a query word matches, each with how well (1 exact, less for prefix or typos). */
  private matches(word: string, isLast: boolean): { term: Term; quality: number }[] {
    const s = stem(word);
    const out: { term: Term; quality: number }[] = [];
    const exact = this.terms.get(s);
    if (exact) out.push({ term: exact, quality: 1 });
    const raw = s !== word ? this.terms.get(word) : undefined;
    if (raw) out.push({ term: raw, quality: 1 });
    const numeric = HAS_DIGIT.test(word);
    // While typing, the last word may be cut short: 'marti' → 'martillo'.
    if (isLast && word.length >= 3 && !numeric) {
      for (const t of this.prefixes.get(word.slice(0, 3)) ?? []) {
        if (t.text.length > word.length && t.text !== s && t.text.startsWith(word)) out.push({ term: t, quality: 0.75 });
      }
    }
    if (out.length > 0 || word.length < 4 || numeric) return out;
    // Typos: terms that share enough trigrams with the word (an edit changes at most 3 of them,
    // a transposition 4), then checked with the edit distance.
    const max = s.length >= 7 ? 2 : 1;
    const grams = trigrams(s);
    const needed = Math.max(1, grams.length - 4 * max);
    const shared = new Map<Term, number>();
    for (const g of grams) {
      const set = this.grams.get(g);
      if (set) for (const t of set) shared.set(t, (shared.get(t) ?? 0) + 1);
    }
    // A misspelt word may keep an ending the stem would have dropped had it been spelt right: 'tomtae'
    // (two letters swapped) stays whole, where 'tomate' stems to 'tomat'. Both forms are tried.
    const forms = s.length > 4 && s.endsWith('e') ? [s, s.slice(0, -1)] : [s];
    for (const [t, n] of shared) {
      if (n < needed) continue;
      let d = max + 1;
      for (const f of forms) if (Math.abs(t.text.length - f.length) <= max) d = Math.min(d, editDistance(f, t.text, max));
      if (d <= max) out.push({ term: t, quality: d === 1 ? 0.7 : 0.45 });
    }
    return out;
  }

  /** Searches with a query as a shopper types it; `extraTerms` (a model's expansions) count half. */
  search(query: string, options: { limit?: number; extraTerms?: string[] } = {}): SearchResult<P> {
    const limit = options.limit ?? 10;
    const { price, rest } = extractPrice(fold(query));
    const words = [...new Set(queryWords(rest))];
    const extra = [...new Set((options.extraTerms ?? []).flatMap((t) => queryWords(fold(t))))].filter((w) => !words.includes(w));
    const enhanced: string[] = [];
    const slots = this.slots;
    const inPrice = (p: number) => !price || ((price.min === undefined || p >= price.min) && (price.max === undefined || p <= price.max));

    let candidates: number[];
    let ranked: boolean;
    let matchedAll = false;
    let categoryHit: string | null = null;
    const { scores, covered, nameHits, best } = this;
    const touched: number[] = [];
    if (words.length === 0 && extra.length === 0) {
      candidates = [];
      for (let i = 0; i < slots.length; i++) if (slots[i] && inPrice(slots[i]!.doc.finalPriceCentavos)) candidates.push(i);
      ranked = false;
    } else {
      const wordsMatched: boolean[] = [];
      const all = [...words.map((w, i) => ({ w, factor: 1, isLast: i === words.length - 1 && extra.length === 0 })), ...extra.map((w) => ({ w, factor: 0.5, isLast: false }))];
      const seen: number[] = [];
      all.forEach(({ w, factor, isLast }, qi) => {
        const found = this.matches(w, isLast);
        if (factor === 1) wordsMatched.push(found.length > 0);
        for (const { term, quality } of found) {
          if (factor === 1 && quality >= 0.7 && !enhanced.includes(term.display)) enhanced.push(term.display);
          term.postings.forEach((code, doc) => {
            const v = WEIGHT_OF_CODE[code] * quality * factor;
            if (best[doc] === 0) seen.push(doc);
            if (v > best[doc]) best[doc] = v;
            // nameHits counts query words found in the name; bit 7 marks "already counted for this word".
            if (code === NAME && factor === 1 && nameHits[doc] < 128) nameHits[doc] += 129;
          });
        }
        for (const doc of seen) {
          if (scores[doc] === 0) touched.push(doc);
          scores[doc] += best[doc];
          best[doc] = 0;
          if (nameHits[doc] >= 128) nameHits[doc] -= 128;
          if (qi < words.length) covered[doc]++;
        }
        seen.length = 0;
      });
      const n = Math.max(1, words.length);
      const lead = words.length ? words[0].slice(0, 4) : '';
      candidates = [];
      for (const doc of touched) {
        const coverage = words.length ? covered[doc] / n : 1;
        scores[doc] *= coverage * coverage;
        // A name that starts with the first word is what the shopper most likely means.
        if (lead && slots[doc]!.foldedName.startsWith(lead)) scores[doc] *= 1.15;
        if (scores[doc] > 0 && inPrice(slots[doc]!.doc.finalPriceCentavos)) candidates.push(doc);
      }
      matchedAll = words.length > 0 && wordsMatched.every(Boolean);
      if (words.length > 0 && words.length <= 3) {
        const qs = words.map(stem);
        for (const c of this.categories.values()) {
          if (qs.every((q) => c.stems.some((cs) => cs === q || (q.length >= 5 && editDistance(q, cs, 1) <= 1)))) {
            categoryHit = c.name;
            break;
          }
        }
      }
      ranked = true;
    }

    const byScore = (a: number, b: number) => scores[b] - scores[a] || compareKeys(slots[a]!, slots[b]!);
    let order = ranked ? byScore : (a: number, b: number) => slots[a]!.doc.finalPriceCentavos - slots[b]!.doc.finalPriceCentavos || compareKeys(slots[a]!, slots[b]!);
    if (price) {
      if (price.band && candidates.length > 0) {
        const prices = candidates.map((d) => slots[d]!.doc.finalPriceCentavos).sort((a, b) => a - b);
        const third = Math.max(1, Math.ceil(prices.length / 3));
        const cut = price.band === 'cheap' ? prices[third - 1] : prices[prices.length - third];
        candidates = candidates.filter((d) => (price.band === 'cheap' ? slots[d]!.doc.finalPriceCentavos <= cut : slots[d]!.doc.finalPriceCentavos >= cut));
        if (words.length === 0) {
          const dir = price.band === 'cheap' ? 1 : -1;
          order = (a, b) => dir * (slots[a]!.doc.finalPriceCentavos - slots[b]!.doc.finalPriceCentavos) || compareKeys(slots[a]!, slots[b]!);
        }
      }
      enhanced.push(price.label);
    }

    const top = topK(candidates, limit, order);
    const topNameHits = ranked && candidates.length > 0 ? nameHits[topK(candidates, 1, byScore)[0]] : 0;
    const hits = top.map((d) => slots[d]!.doc);
    for (const doc of touched) {
      scores[doc] = 0;
      covered[doc] = 0;
      nameHits[doc] = 0;
    }

    let intent: SearchIntent;
    if (price) intent = 'price_range';
    else if (hits.length === 0) intent = 'other';
    else if (categoryHit) intent = 'category';
    else if (matchedAll && topNameHits >= words.length) intent = 'specific_product';
    else intent = 'feature';
    if (categoryHit && !enhanced.includes(categoryHit)) enhanced.unshift(categoryHit);
    return { intent, enhancedTerms: enhanced.slice(0, 8), hits, price };
  }
}

function compareKeys(a: { key: string; doc: { id: string } }, b: { key: string; doc: { id: string } }): number {
  return a.key < b.key ? -1 : a.key > b.key ? 1 : a.doc.id < b.doc.id ? -1 : a.doc.id > b.doc.id ? 1 : 0;
}

/** The first `k` items in `order`, without sorting the rest: one pass keeping a short sorted list. */
function topK(items: number[], k: number, order: (a: number, b: number) => number): number[] {
  const out: number[] = [];
  if (k <= 0) return out;
  for (const item of items) {
    if (out.length === k && order(item, out[k - 1]) >= 0) continue;
    let i = out.length === k ? k - 1 : out.length;
    while (i > 0 && order(item, out[i - 1]) < 0) {
      out[i] = out[i - 1];
      i--;
    }
    out[i] = item;
  }
  return out;
}
