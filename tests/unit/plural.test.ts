// Counted strings read right in every locale: "1 item", "2 items", "1 Bewertung", "2 Bewertungen", and
// 0 in the singular where the language says so (French, Brazilian Portuguese), never "1 items".
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { LOCALES } from '../../src/lib/i18n/locales';
import { pickStrings } from '../../src/lib/i18n';
import { createPluralLookup, formatPlural, pluralCategory, pluralForms } from '../../src/lib/i18n/plural';
import { localePluralForms, translatePlural, usePluralTranslations } from '../../src/lib/i18n/plural-messages';

const root = path.resolve(import.meta.dirname, '../..');
const load = (code: string): Record<string, string> =>
  JSON.parse(fs.readFileSync(path.join(root, 'locales', `${code}.json`), 'utf8'));

/** Every string the storefront shows with a count in it. */
const COUNTED = [
  'cart.itemCount',
  'header.cartCount',
  'catalog.productCount',
  'catalog.filter.ratingAtLeast',
  'order.downloadsLeft',
  'product.lowStock',
  'product.reviewsLink',
  'product.reviewsSummary',
  'support.articleCount',
  'support.search.count',
] as const;

/** What a shopper reads for 0, 1, 2 and 5, per locale, for each counted string. */
const EXPECTED: Record<(typeof COUNTED)[number], Record<string, [string, string, string, string]>> = {
  'cart.itemCount': {
    en_US: ['0 items in your cart', '1 item in your cart', '2 items in your cart', '5 items in your cart'],
    de_DE: [
      '0 Artikel in deinem Warenkorb',
      '1 Artikel in deinem Warenkorb',
      '2 Artikel in deinem Warenkorb',
      '5 Artikel in deinem Warenkorb',
    ],
    es_ES: [
      '0 artículos en tu carrito',
      '1 artículo en tu carrito',
      '2 artículos en tu carrito',
      '5 artículos en tu carrito',
    ],
    fr_FR: [
      '0 article dans votre panier',
      '1 article dans votre panier',
      '2 articles dans votre panier',
      '5 articles dans votre panier',
    ],
    it_IT: [
      '0 articoli nel tuo carrello',
      '1 articolo nel tuo carrello',
      '2 articoli nel tuo carrello',
      '5 articoli nel tuo carrello',
    ],
    pt_BR: ['0 item no seu carrinho', '1 item no seu carrinho', '2 itens no seu carrinho', '5 itens no seu carrinho'],
  },
  'header.cartCount': {
    en_US: ['0 items in your cart', '1 item in your cart', '2 items in your cart', '5 items in your cart'],
    de_DE: ['0 Artikel im Warenkorb', '1 Artikel im Warenkorb', '2 Artikel im Warenkorb', '5 Artikel im Warenkorb'],
    es_ES: [
      '0 artículos en tu carrito',
      '1 artículo en tu carrito',
      '2 artículos en tu carrito',
      '5 artículos en tu carrito',
    ],
    fr_FR: [
      '0 article dans votre panier',
      '1 article dans votre panier',
      '2 articles dans votre panier',
      '5 articles dans votre panier',
    ],
    it_IT: ['0 articoli nel carrello', '1 articolo nel carrello', '2 articoli nel carrello', '5 articoli nel carrello'],
    pt_BR: ['0 item no seu carrinho', '1 item no seu carrinho', '2 itens no seu carrinho', '5 itens no seu carrinho'],
  },
  'catalog.productCount': {
    en_US: ['0 products', '1 product', '2 products', '5 products'],
    de_DE: ['0 Produkte', '1 Produkt', '2 Produkte', '5 Produkte'],
    es_ES: ['0 productos', '1 producto', '2 productos', '5 productos'],
    fr_FR: ['0 produit', '1 produit', '2 produits', '5 produits'],
    it_IT: ['0 prodotti', '1 prodotto', '2 prodotti', '5 prodotti'],
    pt_BR: ['0 produto', '1 produto', '2 produtos', '5 produtos'],
  },
  'catalog.filter.ratingAtLeast': {
    en_US: ['0 stars & up', '1 star & up', '2 stars & up', '5 stars & up'],
    de_DE: ['Ab 0 Sternen', 'Ab 1 Stern', 'Ab 2 Sternen', 'Ab 5 Sternen'],
    es_ES: ['0 estrellas o más', '1 estrella o más', '2 estrellas o más', '5 estrellas o más'],
    fr_FR: ['0 étoile et plus', '1 étoile et plus', '2 étoiles et plus', '5 étoiles et plus'],
    it_IT: ['0 stelle e più', '1 stella e più', '2 stelle e più', '5 stelle e più'],
    pt_BR: ['0 estrela ou mais', '1 estrela ou mais', '2 estrelas ou mais', '5 estrelas ou mais'],
  },
  'order.downloadsLeft': {
    en_US: ['0 downloads left', '1 download left', '2 downloads left', '5 downloads left'],
    de_DE: ['Noch 0 Downloads', 'Noch 1 Download', 'Noch 2 Downloads', 'Noch 5 Downloads'],
    es_ES: ['Quedan 0 descargas', 'Queda 1 descarga', 'Quedan 2 descargas', 'Quedan 5 descargas'],
    fr_FR: [
      '0 téléchargement restant',
      '1 téléchargement restant',
      '2 téléchargements restants',
      '5 téléchargements restants',
    ],
    it_IT: ['0 download rimasti', '1 download rimasto', '2 download rimasti', '5 download rimasti'],
    pt_BR: ['0 download restante', '1 download restante', '2 downloads restantes', '5 downloads restantes'],
  },
  'product.lowStock': {
    en_US: ['Only 0 left in stock', 'Only 1 left in stock', 'Only 2 left in stock', 'Only 5 left in stock'],
    de_DE: ['Nur noch 0 auf Lager', 'Nur noch 1 auf Lager', 'Nur noch 2 auf Lager', 'Nur noch 5 auf Lager'],
    es_ES: ['Solo quedan 0 en stock', 'Solo queda 1 en stock', 'Solo quedan 2 en stock', 'Solo quedan 5 en stock'],
    fr_FR: ['Plus que 0 en stock', 'Plus que 1 en stock', 'Plus que 2 en stock', 'Plus que 5 en stock'],
    it_IT: [
      'Solo 0 rimasti in magazzino',
      'Solo 1 rimasto in magazzino',
      'Solo 2 rimasti in magazzino',
      'Solo 5 rimasti in magazzino',
    ],
    pt_BR: ['Apenas 0 em estoque', 'Apenas 1 em estoque', 'Apenas 2 em estoque', 'Apenas 5 em estoque'],
  },
  'product.reviewsLink': {
    en_US: ['0 reviews', '1 review', '2 reviews', '5 reviews'],
    de_DE: ['0 Bewertungen', '1 Bewertung', '2 Bewertungen', '5 Bewertungen'],
    es_ES: ['0 reseñas', '1 reseña', '2 reseñas', '5 reseñas'],
    fr_FR: ['0 avis', '1 avis', '2 avis', '5 avis'],
    it_IT: ['0 recensioni', '1 recensione', '2 recensioni', '5 recensioni'],
    pt_BR: ['0 avaliação', '1 avaliação', '2 avaliações', '5 avaliações'],
  },
  'product.reviewsSummary': {
    en_US: [
      '4 out of 5 from 0 reviews',
      '4 out of 5 from 1 review',
      '4 out of 5 from 2 reviews',
      '4 out of 5 from 5 reviews',
    ],
    de_DE: [
      '4 von 5 aus 0 Bewertungen',
      '4 von 5 aus 1 Bewertung',
      '4 von 5 aus 2 Bewertungen',
      '4 von 5 aus 5 Bewertungen',
    ],
    es_ES: ['4 de 5 según 0 reseñas', '4 de 5 según 1 reseña', '4 de 5 según 2 reseñas', '4 de 5 según 5 reseñas'],
    fr_FR: ['4 sur 5 d’après 0 avis', '4 sur 5 d’après 1 avis', '4 sur 5 d’après 2 avis', '4 sur 5 d’après 5 avis'],
    it_IT: ['4 su 5 da 0 recensioni', '4 su 5 da 1 recensione', '4 su 5 da 2 recensioni', '4 su 5 da 5 recensioni'],
    pt_BR: ['4 de 5 em 0 avaliação', '4 de 5 em 1 avaliação', '4 de 5 em 2 avaliações', '4 de 5 em 5 avaliações'],
  },
  'support.articleCount': {
    en_US: ['0 articles', '1 article', '2 articles', '5 articles'],
    de_DE: ['0 Artikel', '1 Artikel', '2 Artikel', '5 Artikel'],
    es_ES: ['0 artículos', '1 artículo', '2 artículos', '5 artículos'],
    fr_FR: ['0 article', '1 article', '2 articles', '5 articles'],
    it_IT: ['0 articoli', '1 articolo', '2 articoli', '5 articoli'],
    pt_BR: ['0 artigo', '1 artigo', '2 artigos', '5 artigos'],
  },
  'support.search.count': {
    en_US: ['0 results', '1 result', '2 results', '5 results'],
    de_DE: ['0 Ergebnisse', '1 Ergebnis', '2 Ergebnisse', '5 Ergebnisse'],
    es_ES: ['0 resultados', '1 resultado', '2 resultados', '5 resultados'],
    fr_FR: ['0 résultat', '1 résultat', '2 résultats', '5 résultats'],
    it_IT: ['0 risultati', '1 risultato', '2 risultati', '5 risultati'],
    pt_BR: ['0 resultado', '1 resultado', '2 resultados', '5 resultados'],
  },
};

describe('counted strings in every locale', () => {
  for (const key of COUNTED) {
    for (const { code, bcp47 } of LOCALES) {
      it(`${key} in ${code}: 0, 1, 2 and 5`, () => {
        const tn = usePluralTranslations(code);
        // What an island shows from the strings the page picked for it reads the same.
        const island = createPluralLookup(pickStrings(code, [key]), bcp47);
        const shown = [0, 1, 2, 5].map((n) => tn(key, n, { rating: 4 }));
        expect(shown).toEqual(EXPECTED[key][code]);
        expect([0, 1, 2, 5].map((n) => island(key, n, { rating: 4 }))).toEqual(shown);
      });
    }
  }

  it('a counted key has an `other` form in every locale, no bare form, and only the categories the language has', () => {
    for (const { code, bcp47 } of LOCALES) {
      const strings = load(code);
      const used = new Set(new Intl.PluralRules(bcp47).resolvedOptions().pluralCategories);
      for (const key of Object.keys(strings)) {
        const m = /^(.+)\.(zero|one|two|few|many|other)$/.exec(key);
        if (!m) continue;
        const [, base, category] = m;
        expect(strings[`${base}.other`], `${code}: ${base}.other`).toBeDefined();
        expect(strings[base!], `${code}: ${base} must not also exist without a category`).toBeUndefined();
        expect(used.has(category as Intl.LDMLPluralRule), `${code}: ${key} is no plural category of ${bcp47}`).toBe(
          true,
        );
      }
    }
  });

  it('no counted string is left as one form for every count', () => {
    for (const { code } of LOCALES) {
      const strings = load(code);
      for (const key of COUNTED) expect(strings[key], `${code}: ${key}`).toBeUndefined();
    }
  });

  it('every tn() key in src/ is a counted string of en_US.json', () => {
    const en = load('en_US');
    const files = (dir: string): string[] =>
      fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
        const p = path.join(dir, e.name);
        return e.isDirectory() ? files(p) : /\.(astro|ts|tsx)$/.test(e.name) ? [p] : [];
      });
    const missing: string[] = [];
    let found = 0;
    for (const file of files(path.join(root, 'src'))) {
      const source = fs.readFileSync(file, 'utf8');
      for (const m of source.matchAll(/(?<![\w$.])(?:tn|localePluralForms\([^,]+,)\(?\s*(['"`])([A-Za-z][\w.-]*)\1/g)) {
        found++;
        if (!en[`${m[2]}.other`]) missing.push(`${path.relative(root, file)}: ${m[2]}`);
      }
    }
    expect(found).toBeGreaterThan(5);
    expect(missing).toEqual([]);
  });
});

describe('plural helpers', () => {
  it('take the categories Intl.PluralRules gives: French and Brazilian Portuguese put 0 in the singular', () => {
    expect(pluralCategory('en-US', 0)).toBe('other');
    expect(pluralCategory('fr-FR', 0)).toBe('one');
    expect(pluralCategory('pt-BR', 0)).toBe('one');
    expect(pluralCategory('de-DE', 1)).toBe('one');
  });

  it('fall back to `other` for a category the string does not spell out, and write {count} the locale’s way', () => {
    const forms = { one: '{count} Stück', other: '{count} Stücke' };
    expect(formatPlural(forms, 'de-DE', 1000)).toBe('1.000 Stücke');
    expect(formatPlural({ other: '{count} x' }, 'en-US', 1)).toBe('1 x');
    // 'many' (French for a million) is not in the file: `other`.
    expect(formatPlural({ one: '{count} article', other: '{count} articles' }, 'fr-FR', 1_000_000)).toBe(
      '1\u202f000\u202f000 articles',
    );
  });

  it('return the key for a string without forms, like the plain lookup', () => {
    expect(createPluralLookup({}, 'en-US')('no.such', 2)).toBe('no.such');
    expect(pluralForms({ 'a.one': 'x' }, 'a')).toBeNull();
    expect(translatePlural('de_DE', 'no.such', 2)).toBe('no.such');
    expect(localePluralForms('it_IT', 'cart.itemCount')).toEqual({
      one: '{count} articolo nel tuo carrello',
      other: '{count} articoli nel tuo carrello',
    });
  });
});
