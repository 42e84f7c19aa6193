# Sourced by the scripts that go over every library module (Scripts/docs.sh,
# Scripts/api-check.sh): the modules of the package's library products and the compound module
# the umbrella re-exports, in dependency order.
library_modules=(HTTPSerializationCore HTTPSerializationCodable HTTPSerializationFoundation
                 HTTPSerializationXML HTTPSerializationImages HTTPSerializationCompression HTTPSerializationCompound
                 HTTPSerialization HTTPSerializationAsyncHTTPClient HTTPSerializationHummingbird HTTPSerializationVapor
                 HTTPSerializationMacros)
