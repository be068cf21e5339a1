// What the network layer fails with (`TransportError`, `TLSError`) comes with it: `import NetworkIO` is enough to
// catch and match its errors.

/// `TransportError` and `TLSError`.
@_exported import TransportErrors
