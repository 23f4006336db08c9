/** The bot-check module's one import door. */
export { BotCheckSettingsError, getBotCheckSettings, readBotCheckSettings, type BotCheckSettings } from './settings.ts';
export { verifyBotToken, type BotCheckFailureReason, type BotCheckResult, type VerifyOptions } from './verify.ts';
