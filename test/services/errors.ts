/** Small, named error types for service provisioning. Each carries an optional `cause`. */

export class ServiceProvisionError extends Error {
  override name = 'ServiceProvisionError';
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

export class ServiceStartError extends Error {
  override name = 'ServiceStartError';
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

export class ServiceStopError extends Error {
  override name = 'ServiceStopError';
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

export class ProtocolError extends Error {
  override name = 'ProtocolError';
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}
