// `import HTTPSerializationVapor` brings the core and the Codable layer: the decoders,
// writers and errors its coders speak.
@_exported import HTTPSerializationCodable
@_exported import HTTPSerializationCore
