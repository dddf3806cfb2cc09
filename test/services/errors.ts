/** Small, named error types for service provisioning. Each carries an optional `cause`. */

export class ServiceProvisionError extends Error {
  override name = 'ServiceProvisionError';
}

export class ServiceStartError extends Error {
  override name = 'ServiceStartError';
}

export class ServiceStopError extends Error {
  override name = 'ServiceStopError';
}

export class ProtocolError extends Error {
  override name = 'ProtocolError';
}
