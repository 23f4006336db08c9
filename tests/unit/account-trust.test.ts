// Pure rules behind account trust: a password made of the username or e-mail is refused, the notice
// of an e-mail change shows the new address only partly, and that notice carries its "this wasn't me"
// link with everything the customer types escaped.
import { describe, expect, it } from 'vitest';
import { isMadeOf, passwordProblem } from '../../src/server/auth/passwords.ts';
import { maskEmail } from '../../src/server/auth/email-change.ts';
import { emailChanged } from '../../src/server/mail/templates/index.ts';

const PERSONAL = 'Password must not be your username or e-mail address.';

describe('passwords made of the username or e-mail', () => {
  it('refuses the name repeated any number of times, in any case', () => {
    expect(isMadeOf('carolcarol', 'carol')).toBe(true);
    expect(isMadeOf('CarolCAROLcarol', 'CAROL')).toBe(true);
    expect(isMadeOf('carol1carol1', 'carol1')).toBe(true);
    expect(isMadeOf('carol1carol', 'carol1')).toBe(true); // mostly
    expect(isMadeOf('carol-likes-long-walks', 'carol')).toBe(false);
    expect(passwordProblem('carol1carol1', { username: 'carol' })).toBe(PERSONAL);
    expect(passwordProblem('abababab', { username: 'ab' })).toBe(PERSONAL);
  });

  it('refuses a password that is mostly the name: two thirds of it, or fewer than four other characters', () => {
    expect(passwordProblem('Carol!Carol!', { email: 'carol@example.com' })).toBe(PERSONAL);
    expect(passwordProblem('christopher#1', { username: 'christopher' })).toBe(PERSONAL);
    expect(passwordProblem('alexander2024', { username: 'alexander' })).toBe(PERSONAL);
    expect(passwordProblem('ana.lopez@mail.test!', { email: 'ana.lopez@mail.test' })).toBe(PERSONAL);
  });

  it('keeps passwords that merely contain the name, and short names inside long passwords', () => {
    expect(passwordProblem('carol-likes-long-walks', { username: 'carol', email: 'carol@example.com' })).toBeNull();
    expect(passwordProblem('Carol2024-blue', { username: 'carol' })).toBeNull();
    expect(passwordProblem('totally-random-words', { username: 'al' })).toBeNull();
    // The other rules still come first.
    expect(passwordProblem('carol', { username: 'carol' })).toMatch(/at least 8/);
    expect(passwordProblem('password123', { username: 'carol' })).toMatch(/too common/);
  });
});

describe('the e-mail change notice', () => {
  it('hides most of the new address', () => {
    expect(maskEmail('mallory@evil.example')).toBe('ma***@e***.example');
    expect(maskEmail('bo@mail.co.uk')).toBe('b***@m***.uk');
    expect(maskEmail('x@localhost')).toBe('x***@***');
    expect(maskEmail('no-at-sign')).toBe('***');
  });

  it('carries the report link in both versions and escapes the name', () => {
    const mail = emailChanged({
      maskedNewAddress: 'ma***@e***.example',
      reportUrl: 'https://shop.example/my-account/email-change-report?token=T&x=1',
      customerName: '<b>Ana</b>',
      validForDays: 7,
    });
    expect(mail.subject).toMatch(/e-mail address was changed/);
    expect(mail.text).toContain('changed to ma***@e***.example');
    expect(mail.text).toContain('https://shop.example/my-account/email-change-report?token=T&x=1');
    expect(mail.text).toContain('The link works for 7 days.');
    expect(mail.html).toContain('href="https://shop.example/my-account/email-change-report?token=T&amp;x=1"');
    expect(mail.html).toContain('&lt;b&gt;Ana&lt;/b&gt;');
    expect(mail.html).not.toContain('<b>Ana</b>');
    expect(() => emailChanged({ maskedNewAddress: 'x', reportUrl: 'javascript:alert(1)' })).toThrow(/http/);
  });
});
