// The core speaks swift-http-types: its requests and responses are HTTPRequest and HTTPResponse.
@_exported import HTTPTypes
