import { foldSearchSql, foldSearchText, SEARCH_FOLD_FROM, SEARCH_FOLD_TO } from './search-fold';

describe('search without accents or case', () => {
  it('folds what the user typed as the SQL folds a column', () => {
    expect(foldSearchText('Café de ANTIGUA')).toBe('cafe de antigua');
    expect(foldSearchText('PIÑA Ü ç')).toBe('pina u c');
    expect(foldSearchText('100%_x')).toBe('100%_x');
  });

  it('maps each accented letter to one plain letter (translate needs both lists the same length)', () => {
    expect([...SEARCH_FOLD_FROM]).toHaveLength([...SEARCH_FOLD_TO].length);
    expect(foldSearchSql('p.name')).toBe(`translate(lower(p.name), '${SEARCH_FOLD_FROM}', '${SEARCH_FOLD_TO}')`);
  });
});
