import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fail } from '@nvcf/errors';
import type { GraphQLParams } from './guard.js';

/**
 * `off`: ids are not looked up, every document is ad hoc. `allow` (the default): a known id runs
 * its trusted document, ad-hoc documents run too (the IDE, scripts). `require` (production, once
 * every client sends ids): only the documents of the manifest run.
 */
export const trustedModes = ['off', 'allow', 'require'] as const;
export type TrustedMode = (typeof trustedModes)[number];

export class TrustedDocumentsInvalid extends Error {
  override name = 'TrustedDocumentsInvalid';
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
/** `sha256:<hex>` (the codegen manifest, GraphQL-over-HTTP `documentId`) or the bare hex (Apollo's `sha256Hash`). */
const hexOf = (id: string) => /^(?:sha256:)?([0-9a-fA-F]{64})$/.exec(id)?.[1]?.toLowerCase();

/** The manifest of the documents @nvcf/client ships (the CLI and the console use them). */
export const defaultTrustedDocumentsFile = (): string =>
  createRequire(import.meta.url).resolve('@nvcf/client/persisted-documents.json');

/**
 * The manifest `npm run codegen` writes (client/persisted-documents.json): id → document.
 * Every document must hash to its id: a manifest edited by hand fails here, at start.
 */
export function loadTrustedDocuments(file: string): Map<string, string> {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (cause) {
    throw new TrustedDocumentsInvalid(`${file} cannot be read as JSON: ${(cause as Error).message}`, { cause });
  }
  if (!raw || typeof raw !== 'object' || Array.isArray(raw))
    throw new TrustedDocumentsInvalid(`${file} must be one JSON object { "sha256:<hex>": "<document>" }`);
  const documents = new Map<string, string>();
  for (const [id, document] of Object.entries(raw)) {
    const hex = hexOf(id);
    if (!hex || typeof document !== 'string')
      throw new TrustedDocumentsInvalid(
        `${file}: "${id.slice(0, 80)}" must be a sha256 id ("sha256:<64 hex digits>") with its document as a string`,
      );
    if (sha256(document) !== hex)
      throw new TrustedDocumentsInvalid(
        `${file}: the document of ${id} does not hash to it; regenerate the manifest (npm run codegen)`,
      );
    documents.set(hex, document);
  }
  return documents;
}

/** The persisted id a request names, if any: GraphQL-over-HTTP `documentId` or Apollo's `extensions.persistedQuery`. */
function requestedId(params: GraphQLParams): string | undefined {
  if (params.documentId != null) {
    if (typeof params.documentId !== 'string')
      throw fail('BAD_USER_INPUT', '`documentId` must be a string ("sha256:<hex>")', { field: 'documentId' });
    return params.documentId;
  }
  const persisted =
    params.extensions && typeof params.extensions === 'object'
      ? (params.extensions as Record<string, unknown>).persistedQuery
      : undefined;
  if (persisted == null) return undefined;
  const hash = typeof persisted === 'object' ? (persisted as Record<string, unknown>).sha256Hash : undefined;
  if (typeof hash !== 'string')
    throw fail('BAD_USER_INPUT', '`extensions.persistedQuery` must be {"version": 1, "sha256Hash": "<hex>"}', {
      field: 'extensions.persistedQuery',
    });
  return hash;
}

/** The request without its id: what the engine receives (it knows nothing of ids). */
function withoutId(params: GraphQLParams): GraphQLParams {
  const { documentId: _d, extensions, ...rest } = params;
  if (!extensions || typeof extensions !== 'object') return rest;
  const { persistedQuery: _p, ...others } = extensions as Record<string, unknown>;
  return Object.keys(others).length ? { ...rest, extensions: others } : rest;
}

export interface Resolved {
  /** what the guard checks and the engine runs: the request itself when it names no id, else a copy holding the document */
  params: GraphQLParams;
  /** `sha256:<hex>` when the document came from the manifest */
  documentId?: string;
}

/**
 * Trusted documents, looked up after the tenant's rate and before the operation guard: in
 * `require` mode nothing but a manifest id reaches the parser.
 */
export class TrustedDocuments {
  constructor(
    readonly mode: TrustedMode,
    private readonly documents: ReadonlyMap<string, string> = new Map(),
  ) {}

  get size() {
    return this.documents.size;
  }

  resolve(params: GraphQLParams): Resolved {
    const id = requestedId(params);
    const query = typeof params.query === 'string' && params.query.trim() ? params.query : undefined;
    if (id === undefined) {
      if (this.mode === 'require') {
        throw fail(
          'PERSISTED_QUERY_REQUIRED',
          'this gateway runs trusted documents only: send the `documentId` (or `extensions.persistedQuery.sha256Hash`) of an operation a released client ships, not a document',
          { field: 'documentId' },
        );
      }
      return { params };
    }
    const hex = this.mode === 'off' ? undefined : hexOf(id);
    const document = hex && this.documents.get(hex);
    if (!document) {
      // Apollo's APQ retry (the id, then the id with its document): an ad-hoc document, the id ignored
      if (query !== undefined && this.mode !== 'require') return { params: withoutId(params) };
      const why =
        this.mode === 'off'
          ? 'this gateway does not serve persisted documents (TRUSTED_DOCUMENTS=off): send the document in `query`'
          : this.mode === 'require'
            ? 'only the documents of released clients run here; a new client version adds its documents to the manifest the gateway is deployed with'
            : 'send the document in `query` with it';
      throw fail('PERSISTED_QUERY_NOT_FOUND', `no trusted document has the id "${id.slice(0, 80)}"; ${why}`, {
        field: params.documentId != null ? 'documentId' : 'extensions.persistedQuery',
      });
    }
    // an id with a document: the document must be the one the id names, byte for byte (no parse to compare)
    if (query !== undefined && query !== document) {
      throw fail(
        'BAD_USER_INPUT',
        `the document sent is not the trusted document sha256:${hex}: send the id alone, or with the manifest's text of it`,
        { field: 'query' },
      );
    }
    return { params: { ...withoutId(params), query: document }, documentId: `sha256:${hex}` };
  }
}
