/** Failures of the NATS bus; each keeps the client's error as `cause`. */

export class BusConnectError extends Error {
  override name = 'BusConnectError';
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

export class StreamConfigError extends Error {
  override name = 'StreamConfigError';
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

export class PublishFailed extends Error {
  override name = 'PublishFailed';
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

export class BusClosed extends Error {
  override name = 'BusClosed';
  constructor(message = 'the bus has been disposed') {
    super(message);
  }
}
