// The whole AFNetworking surface in one import: the core, the Foundation layer (URLRequest,
// URLResponse, URLSession, NSError), XML, images and compressed bodies. Apps that want less import the
// smaller products directly.
@_exported import HTTPSerializationCodable
@_exported import HTTPSerializationCompression
@_exported import HTTPSerializationCore
@_exported import HTTPSerializationFoundation
@_exported import HTTPSerializationImages
@_exported import HTTPSerializationXML
@_exported import HTTPTypes
