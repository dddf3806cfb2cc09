import { readWebPages } from '../src/config.js';
import { prefersHtml } from '../src/web.js';

describe('GRAPHIQL and CONSOLE', () => {
  it('the IDE is on in development and off in production unless asked for; the console is on in both', () => {
    expect(readWebPages({}, 'dev')).toEqual({ graphiql: true, console: true });
    expect(readWebPages({}, 'jwt')).toEqual({ graphiql: false, console: true });
    expect(readWebPages({ GRAPHIQL: 'on', CONSOLE: 'off' }, 'jwt')).toEqual({ graphiql: true, console: false });
    expect(readWebPages({ GRAPHIQL: 'off' }, 'dev')).toEqual({ graphiql: false, console: true });
  });

  it('names the allowed values for anything else', () => {
    expect(() => readWebPages({ CONSOLE: 'yes' }, 'dev')).toThrow(/CONSOLE.*on.*off/);
  });
});

describe('which GET /graphql is a browser asking for the IDE', () => {
  it('is the one whose preferred type is text/html', () => {
    expect(prefersHtml('text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8')).toBe(true);
    expect(prefersHtml('application/json, text/html;q=0.5')).toBe(false);
    expect(prefersHtml('application/graphql-response+json, text/html')).toBe(false);
    expect(prefersHtml('application/json;q=0.4, text/html')).toBe(true);
    expect(prefersHtml('*/*')).toBe(false);
    expect(prefersHtml('')).toBe(false);
  });
});
