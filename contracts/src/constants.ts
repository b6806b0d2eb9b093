// `@tiendita/contracts/constants`: the zod-free part of the contracts (messages, constants, pure
// helpers). The package entry also builds every zod schema when it loads, about 33 KB gzipped that
// the shop's first page on a phone does without; the shop imports from here.
export * from './catalog-constants';
export * from './stock-level';
export * from './vat';
export * from './whatsapp';
export * from './image-variants';
export * from './money';
export * from './order-constants';
export * from './order-limits';
export * from './offline-card';
export * from './order-status';
export * from './store-constants';
export * from './store-theme';
export * from './subscription-constants';
