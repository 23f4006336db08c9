/** The bot-check module's one import door. */
export {
  BotCheckSettingsError,
  getBotCheckSettings,
  readBotCheckSettings,
  ALTCHA_MAX_TTL_SECONDS,
  type AltchaSettings,
  type BotCheckMode,
  type BotCheckSettings,
} from './settings.ts';
export { verifyBotToken, type BotCheckFailureReason, type BotCheckResult, type VerifyOptions } from './verify.ts';
export { AltchaChallenges, altchaKeys, ALTCHA_ALGORITHM, ALTCHA_CHALLENGE_PATH, type AltchaKeys } from './altcha.ts';
export { checkBot, usesAltcha, type BotCheckAnswer, type BotCheckDeps } from './check.ts';
export { handleAltchaChallenge, type AltchaChallengeDeps } from './http.ts';
