import { createHmac, timingSafeEqual } from 'node:crypto';

export class CursorError extends Error {
  override name = 'CursorError';
  constructor(
    readonly code: 'CURSOR_INVALID',
    message: string,
  ) {
    super(message);
  }
}

const mac = (secret: string, body: string) =>
  createHmac('sha256', secret).update(`cursor:${body}`).digest('base64url').slice(0, 22);

/** An opaque, signed status-stream position bound to one tenant: `v1.<seq>.<mac>`. */
export function encodeCursor(secret: string, tenant: string, seq: number): string {
  const body = `v1.${seq.toString(36)}`;
  return `${body}.${mac(secret, `${tenant}|${body}`)}`;
}

/** The stream sequence of a cursor, if it was signed by us for this tenant. */
export function decodeCursor(secret: string, tenant: string, cursor: string): number {
  const parts = cursor.split('.');
  if (parts.length !== 3 || parts[0] !== 'v1')
    throw new CursorError(
      'CURSOR_INVALID',
      'the cursor is malformed; pass a cursor received from the same subscription field',
    );
  const body = `${parts[0]}.${parts[1]}`;
  const expected = Buffer.from(mac(secret, `${tenant}|${body}`));
  const given = Buffer.from(parts[2]);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) {
    throw new CursorError('CURSOR_INVALID', 'the cursor was not issued to this tenant or was altered');
  }
  const seq = parseInt(parts[1], 36);
  if (!Number.isSafeInteger(seq) || seq < 0) throw new CursorError('CURSOR_INVALID', 'the cursor is malformed');
  return seq;
}
