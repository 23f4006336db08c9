-- The language a customer last used the shop in (registration, login, account update): the account's
-- own mails (password reset, e-mail verification) are written in it. Accounts made before this
-- migration were made on an English-speaking engine.
ALTER TABLE "customers" ADD COLUMN "locale" text DEFAULT 'en_US' NOT NULL;
