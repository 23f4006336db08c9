// The checkout says the engine's "try again" answers in the shopper's language: the error codes of
// src/server/http/database-errors.ts map to locale keys every locale has.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { GraphQLRequestError } from '../../src/graphql/wire';
import { databaseErrorKey } from '../../src/stores/engine-message';

const refusal = (code: string) =>
  new GraphQLRequestError('The shop cannot reach its database at the moment.', {
    operationName: 'Checkout',
    status: 503,
    errors: [{ message: 'The shop cannot reach its database at the moment.', extensions: { code } }],
  });

describe('databaseErrorKey', () => {
  it('maps DATABASE_UNAVAILABLE and DATABASE_READ_ONLY to keys all six locales translate', () => {
    const keys = [databaseErrorKey(refusal('DATABASE_UNAVAILABLE')), databaseErrorKey(refusal('DATABASE_READ_ONLY'))];
    expect(keys).toEqual(['checkout.error.unavailable', 'checkout.error.readOnly']);
    const dir = path.resolve(import.meta.dirname, '../../locales');
    const english = JSON.parse(fs.readFileSync(path.join(dir, 'en_US.json'), 'utf8'));
    for (const file of fs.readdirSync(dir).filter((f) => f.endsWith('.json'))) {
      const strings = JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8'));
      for (const key of keys) {
        expect(strings[key!], `${file} ${key}`).toBeTruthy();
        if (file !== 'en_US.json') expect(strings[key!], `${file} ${key} is translated`).not.toBe(english[key!]);
      }
    }
  });

  it('leaves every other error to the engine message', () => {
    expect(databaseErrorKey(refusal('BAD_USER_INPUT'))).toBeNull();
    expect(databaseErrorKey(new Error('network'))).toBeNull();
    expect(databaseErrorKey(null)).toBeNull();
  });
});
