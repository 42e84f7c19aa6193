// Every layer brings the core with it, so one import is enough (the bridge's own API needs the
// package trait `AsyncHTTPClient`; the core comes either way).
@_exported import HTTPSerializationCore
