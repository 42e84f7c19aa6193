import ArgumentParser
import HTTPSerCLI

/// The executable's entry point: the root command of HTTPSerCLI, run asynchronously.
@main
extension HTTPSer {}
