// GET /api/contact-form/config — the bot-check settings the contact form loads on first use.
import type { APIRoute } from 'astro';
import { getBotCheckSettings } from '../../../server/bot-check/index.ts';
import { handleContactConfig, readContactSettings } from '../../../server/contact/index.ts';

export const prerender = false;

export const GET: APIRoute = () =>
  handleContactConfig({ botCheck: getBotCheckSettings(), settings: readContactSettings() });
