import { PAGE_CONFIG_ID, type PageConfig } from '../src/page-config.js';

export type { PageConfig };

const fallback: PageConfig = {
  graphqlPath: '/graphql',
  authMode: 'jwt',
  devTokens: [],
  pages: { ide: true, console: true },
};

/**
 * The configuration the gateway put in this page. A page opened from the build folder (no
 * gateway, `{}`) gets the production defaults: no token, the endpoint on this origin.
 */
export function readPageConfig(doc: Document = document): PageConfig {
  const text = doc.getElementById(PAGE_CONFIG_ID)?.textContent ?? '{}';
  let parsed: Partial<PageConfig>;
  try {
    parsed = JSON.parse(text) as Partial<PageConfig>;
  } catch {
    parsed = {};
  }
  return {
    graphqlPath: typeof parsed.graphqlPath === 'string' ? parsed.graphqlPath : fallback.graphqlPath,
    authMode: parsed.authMode === 'dev' ? 'dev' : 'jwt',
    devTokens: Array.isArray(parsed.devTokens)
      ? parsed.devTokens.filter((t) => typeof t?.token === 'string' && typeof t.tenant === 'string')
      : [],
    pages: { ide: parsed.pages?.ide ?? fallback.pages.ide, console: parsed.pages?.console ?? fallback.pages.console },
  };
}
