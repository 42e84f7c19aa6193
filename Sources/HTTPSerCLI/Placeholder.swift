public enum HTTPSerCLIPlaceholder {}
