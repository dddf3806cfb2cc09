/** Failures of a bus; each keeps the client's error as `cause` (`new X(message, { cause })`). */

export class BusConnectError extends Error {
  override name = 'BusConnectError';
}

export class StreamConfigError extends Error {
  override name = 'StreamConfigError';
}

export class PublishFailed extends Error {
  override name = 'PublishFailed';
}

/** Any use of a bus after its dispose(): the memory bus and the NATS bus alike. */
export class BusClosed extends Error {
  override name = 'BusClosed';
  constructor(message = 'the bus has been disposed') {
    super(message);
  }
}
