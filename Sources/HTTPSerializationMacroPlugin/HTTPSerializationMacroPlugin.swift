#if Macros
import SwiftCompilerPlugin
import SwiftSyntaxMacros

/// The macros this plugin expands.
struct HTTPSerializationMacroPlugin: CompilerPlugin {
    let providingMacros: [any Macro.Type] = [GeneratedJSONCodingMacro.self]
}
#endif
