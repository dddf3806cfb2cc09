export { WebAssets, WebAssetsMissing, CONTENT_SECURITY_POLICY, defaultWebDir } from './assets.js';
export type { PageName } from './assets.js';
export { renderPageConfig, PAGE_CONFIG_ID, PAGE_CONFIG_PLACEHOLDER } from './page-config.js';
export type { PageConfig } from './page-config.js';
