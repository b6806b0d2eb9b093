import { BUSINESS_TYPES, businessTypePresets } from './store-constants';

describe('business types and their preset categories', () => {
  it('are the 14 types of spec 000, each with four presets; electronics and other as the spec gives them', () => {
    expect(BUSINESS_TYPES.map((b) => b.value)).toEqual([
      'electronics', 'fashion', 'grocery', 'hardware', 'restaurant', 'pharmacy', 'beauty', 'jewelry', 'automotive', 'home', 'sports', 'books', 'pets', 'other',
    ]);
    for (const b of BUSINESS_TYPES) expect(b.presets).toHaveLength(4);
    expect(businessTypePresets('electronics')).toEqual(expect.arrayContaining(['Celulares', 'Computadoras']));
    expect(businessTypePresets('other')).toEqual(['Productos', 'Servicios', 'Categoría 1', 'Categoría 2']);
  });

  it('a type that is not one of them, or none, has no presets', () => {
    expect(businessTypePresets('panaderia')).toEqual([]);
    expect(businessTypePresets(undefined)).toEqual([]);
    expect(businessTypePresets(null)).toEqual([]);
  });
});
