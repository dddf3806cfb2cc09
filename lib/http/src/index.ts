/** The HTTP plumbing every service shares: listening, graceful close, bounded bodies, JSON answers, WebSocket frames. */
export { listen, closeServer, type CloseOptions } from './listen.js';
export { readBody, discardBody, sendJson, graphqlError, BodyTooLarge, type SendOptions } from './body.js';
export { encodeTextFrames } from './ws-frames.js';
export { Outbox, FRAMES_PER_WRITE } from './outbox.js';
