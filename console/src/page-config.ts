/**
 * What the gateway tells its pages at run time (not at build time: one build serves every
 * deployment). It travels inline, in the page's `<script type="application/json" id="nvcf-config">`:
 * a data block, not a script, so the CSP needs nothing for it and the page needs no extra request.
 */
export interface PageConfig {
  /** the GraphQL endpoint, on the page's origin */
  graphqlPath: string;
  /** `dev`: static development tokens; `jwt`: bearer JWTs from the deployment's identity provider */
  authMode: 'dev' | 'jwt';
  /**
   * Tokens a page may pre-fill. Only the published development tokens the gateway accepts
   * (AUTH_MODE=dev): a page is served to anyone who asks, so no other token is ever put in one.
   */
  devTokens: { token: string; tenant: string }[];
  /** the pages this gateway serves, so that each can link to the other */
  pages: { ide: boolean; console: boolean };
}

export const PAGE_CONFIG_ID = 'nvcf-config';
/** what each built page carries in place of its configuration (web/*.html) */
export const PAGE_CONFIG_PLACEHOLDER = `<script type="application/json" id="${PAGE_CONFIG_ID}">{}</script>`;

/** The configuration as the data block's text: `<` escaped, so no value can close the element. */
export function renderPageConfig(config: PageConfig): string {
  const json = JSON.stringify(config)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
  return `<script type="application/json" id="${PAGE_CONFIG_ID}">${json}</script>`;
}
