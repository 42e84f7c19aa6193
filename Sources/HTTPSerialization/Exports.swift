// The whole AFNetworking surface in one import: the core, the Foundation layer (URLRequest,
// URLResponse, URLSession, NSError), XML and images. Apps that want less import the
// smaller products directly.
@_exported import HTTPSerializationCodable
@_exported import HTTPSerializationCore
@_exported import HTTPSerializationFoundation
@_exported import HTTPSerializationImages
@_exported import HTTPSerializationXML
@_exported import HTTPTypes
