// The whole AFNetworking surface in one import: the core, the Foundation layer (URLRequest,
// URLResponse, URLSession, NSError), XML, images, compressed bodies and the compound response
// serializer. Apps that want less import the smaller products directly. This module declares
// nothing of its own.
@_exported import HTTPSerializationCodable
@_exported import HTTPSerializationCompound
@_exported import HTTPSerializationCompression
@_exported import HTTPSerializationCore
@_exported import HTTPSerializationFoundation
@_exported import HTTPSerializationImages
@_exported import HTTPSerializationXML
@_exported import HTTPTypes
