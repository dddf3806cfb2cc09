import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { GraphiQL } from 'graphiql';
// monaco's editor, JSON and GraphQL workers, bundled by Vite like the rest (no CDN)
import 'graphiql/setup-workers/vite';
import 'graphiql/style.css';
import { readPageConfig } from '../page-config.js';
import { namespacedStorage } from '../storage.js';
import { gatewayFetcher } from './fetcher.js';
import { exampleTabs, headersText, initialHeaders } from './examples.js';
import './ide.css';

const config = readPageConfig();
const headers = headersText(config);

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <GraphiQL
      fetcher={gatewayFetcher(config.graphqlPath, config.devTokens.length ? initialHeaders(config) : {})}
      defaultTabs={exampleTabs(config)}
      // a restored tab and a new one open with the token too (headers are never stored: they hold tokens)
      defaultHeaders={headers}
      initialHeaders={headers}
      defaultEditorToolsVisibility="headers"
      storage={namespacedStorage('nvcf-ide')}
    >
      <GraphiQL.Logo>
        <span className="nvcf-logo">NVCF</span>
        {config.pages.console ? (
          <a className="nvcf-link" href="/console/">
            console
          </a>
        ) : null}
      </GraphiQL.Logo>
    </GraphiQL>
  </StrictMode>,
);
