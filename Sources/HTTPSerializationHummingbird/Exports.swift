// `import HTTPSerializationHummingbird` brings the types its API speaks and no more: the coders, the
// failure they throw and the errors it can hold, the limits and options they take, the
// multipart form and file a route reads, and the writers and broadcast `Response.stream` takes.
// The rest of the core stays behind `import HTTPSerializationCore`, so none of its names
// (`RequestBody`, say) can shadow the framework's.
@_exported import struct HTTPSerializationCodable.FormDecoder
@_exported import struct HTTPSerializationCodable.FormEncoder
@_exported import struct HTTPSerializationCodable.JSONBodyDecoder
@_exported import struct HTTPSerializationCodable.JSONBodyEncoder
@_exported import struct HTTPSerializationCodable.MultipartFormDecoder
@_exported import struct HTTPSerializationCodable.RequestBodyFailure
@_exported import enum HTTPSerializationCore.FormDecodingError
@_exported import struct HTTPSerializationCore.FormDecodingLimits
@_exported import struct HTTPSerializationCore.JSONReadingError
@_exported import struct HTTPSerializationCore.JSONStreamWriter
@_exported import struct HTTPSerializationCore.JSONWritingOptions
@_exported import struct HTTPSerializationCore.MultipartFile
@_exported import struct HTTPSerializationCore.MultipartForm
@_exported import enum HTTPSerializationCore.MultipartParsingError
@_exported import struct HTTPSerializationCore.MultipartParsingLimits
@_exported import struct HTTPSerializationCore.QueryStringStyle
@_exported import struct HTTPSerializationCore.ServerSentEvent
@_exported import struct HTTPSerializationCore.ServerSentEventWriter
@_exported import protocol HTTPSerializationCore.StreamBodyWriter
@_exported import class HTTPSerializationCore.StreamBroadcast
@_exported import enum HTTPSerializationCore.StreamWritingError
