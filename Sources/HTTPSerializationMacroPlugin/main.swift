// The compiler plugin's entry point. Without the `Macros` trait this package's own builds
// still compile the target, with no swift-syntax, so it is then an empty program.
#if Macros
import SwiftCompilerPlugin

try HTTPSerializationMacroPlugin.main()
#endif
