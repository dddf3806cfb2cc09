import { rm } from 'node:fs/promises';
import { CliVerifyTokenDocument } from '@nvcf/client';
import { checkUrl, readConfigFile, redact, resolveConfig, writeConfigFile } from './config.js';
import type { Ctx, GlobalOptions } from './context.js';
import { EXIT, UsageError } from './errors.js';
import { details } from './output.js';
import type { OutputFormat } from './formats.js';

export interface LoginOptions {
  tokenStdin?: boolean;
}

async function readStdin(ctx: Ctx): Promise<string> {
  if (!ctx.io.stdin) throw new UsageError('--token-stdin: there is no standard input');
  let text = '';
  for await (const chunk of ctx.io.stdin)
    text += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
  return text.trim();
}

/**
 * `nvcf login --url URL --token TOKEN`: proves the token with a cheap query, then saves both in
 * the configuration file (0600). Nothing is saved when the gateway refuses the token.
 */
export async function login(ctx: Ctx, globals: GlobalOptions, opts: LoginOptions): Promise<number> {
  if (opts.tokenStdin && globals.token) throw new UsageError('--token and --token-stdin are exclusive');
  const token = opts.tokenStdin ? await readStdin(ctx) : undefined;
  const cfg = await resolveConfig({ url: globals.url, token: token ?? globals.token }, ctx.io.env);
  if (!cfg.url) throw new UsageError('login needs the gateway URL: --url URL (or NVCF_URL)');
  if (!cfg.token) throw new UsageError('login needs a token: --token TOKEN, --token-stdin (or NVCF_TOKEN)');
  const url = checkUrl(cfg.url.value);
  const { createClient } = await import('@nvcf/client');
  const client = createClient({ url, token: cfg.token.value });
  await client.query(CliVerifyTokenDocument);
  await writeConfigFile(cfg.file, { url: client.url, token: cfg.token.value });
  ctx.out(`logged in to ${client.url}; the token is saved in ${cfg.file} (readable by you only)\n`);
  return EXIT.ok;
}

/** `nvcf logout`: forgets the saved token (and the file, when nothing else is in it). */
export async function logout(ctx: Ctx): Promise<number> {
  const { file } = await ctx.config();
  const saved = await readConfigFile(file);
  if (!saved.token) {
    ctx.out(`no token saved in ${file}\n`);
    return EXIT.ok;
  }
  if (saved.url) await writeConfigFile(file, { url: saved.url });
  else await rm(file, { force: true });
  ctx.out(`removed the token from ${file}\n`);
  return EXIT.ok;
}

/** `nvcf config view`: the settings in effect, each with where it came from; the token redacted. */
export async function view(ctx: Ctx, opts: { output: OutputFormat }): Promise<number> {
  const cfg = await ctx.config();
  const data = {
    url: cfg.url ? { value: cfg.url.value, source: cfg.url.source } : null,
    token: cfg.token ? { value: redact(cfg.token.value), source: cfg.token.source } : null,
    file: cfg.file,
  };
  const show = (s: { value: string; source: string } | null) =>
    s
      ? `${s.value}  ${ctx.colors.dim(`(${s.source === 'flag' ? 'flag' : s.source === 'env' ? 'environment' : 'file'})`)}`
      : ctx.colors.dim('(not set)');
  ctx.print(opts.output, data, () =>
    details(
      [
        ['URL', show(data.url)],
        ['Token', show(data.token)],
        ['File', cfg.file],
      ],
      ctx.colors,
    ),
  );
  return EXIT.ok;
}
