// The domains' resolver maps are joined by mergeResolvers: each type.field has one owner, and a field two
// domains both define stops the schema from building instead of going to whichever is listed last.
import { describe, expect, it } from 'vitest';
import type { GraphQLObjectType } from 'graphql';
import { buildSchema } from '../../src/server/schema/index.ts';
import { mergeResolvers } from '../../src/server/schema/merge.ts';

describe('mergeResolvers', () => {
  it('joins different fields of one type from several domains', () => {
    const a = () => 'a';
    const b = () => 'b';
    const merged = mergeResolvers({
      cart: { Customer: { sessionToken: a } },
      customers: { Customer: { email: b }, RootQuery: { viewer: a } },
    });
    expect(merged).toEqual({ Customer: { sessionToken: a, email: b }, RootQuery: { viewer: a } });
  });

  it('refuses a field two domains define, naming the field and both domains', () => {
    expect(() =>
      mergeResolvers({
        orders: { DownloadableItem: { url: () => null } },
        wishlist: { Wishlist: {} },
        downloads: { DownloadableItem: { url: () => 'signed' } },
      }),
    ).toThrow('Resolver DownloadableItem.url is defined by two domains, orders and downloads');
  });
});

describe('the real schema', () => {
  it('builds, with the fields that were defined twice resolved', () => {
    const schema = buildSchema([]);
    // graphql-yoga's graphql module is not the one this file would import, so no instanceof checks here.
    const fields = (type: string) => (schema.getType(type) as GraphQLObjectType).getFields();
    expect(fields('Customer').email!.resolve).toBeTypeOf('function');
    expect(fields('Customer').billing!.resolve).toBeTypeOf('function');
    expect(fields('Comment').status!.resolve).toBeTypeOf('function');
    expect(fields('DownloadableItem').url!.resolve).toBeTypeOf('function');
  });
});
