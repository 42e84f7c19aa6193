// Every layer brings the core with it, so one import is enough; this one brings the Codable
// layer too, as the README's product table says.
@_exported import HTTPSerializationCore
@_exported import HTTPSerializationCodable
