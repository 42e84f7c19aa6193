/// Where a value sits in a parameter graph, for error messages: `user.tags[2]`.
@usableFromInline
package struct ParameterPath: Sendable {
    package enum Component: Sendable {
        case key(String)
        case index(Int)
    }

    private(set) var components: [Component] = []

    package init() {}

    package var count: Int { components.count }

    package func appending(_ component: Component) -> ParameterPath {
        var copy = self
        copy.components.append(component)
        return copy
    }

    package var description: String {
        var text = ""
        for component in components {
            switch component {
            case .key(let key): text += text.isEmpty ? key : "." + key
            case .index(let index): text += "[\(index)]"
            }
        }
        return text
    }
}
