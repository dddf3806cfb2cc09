import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { readPageConfig } from '../page-config.js';

// A placeholder until the console itself lands: it proves the build, the route and the CSP.
const config = readPageConfig();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <main>
      <h1>NVCF console</h1>
      {config.pages.ide ? <p><a href={config.graphqlPath}>GraphQL IDE</a></p> : null}
    </main>
  </StrictMode>,
);
