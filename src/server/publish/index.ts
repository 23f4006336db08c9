export { createPublisher, Publisher, PublishBusyError, type PublishResult, type PublishStatus } from './service.ts';
export type { SiteBuilder, BuildContext } from './astro-build.ts';
export { readPublishSettings, type PublishSettings } from './settings.ts';
