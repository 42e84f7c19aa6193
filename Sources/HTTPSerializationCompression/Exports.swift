// Every layer brings the core with it, so one import is enough.
@_exported import HTTPSerializationCore
