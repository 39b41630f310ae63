/** Thrown when an attempt's container was removed under it: a newer attempt superseded it, or someone cleaned up. */
export class ContainerGoneError extends Error {
  override name = 'ContainerGoneError';
}
