/** The translation status the build made (src/integrations/translation-status.ts). */
declare module 'virtual:meshfront/translation-status' {
  const report: import('../lib/content/translation-status.ts').TranslationReport;
  export default report;
}
