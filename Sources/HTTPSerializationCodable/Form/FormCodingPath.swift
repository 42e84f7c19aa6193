/// The keys from a form's root to a value, as a chain: a model's fields are read without
/// building a `codingPath` array each, and the array is made only when an error or the
/// model asks for it.
indirect enum FormCodingPath {
    case root
    case key(any CodingKey, parent: FormCodingPath)
    case index(Int, parent: FormCodingPath)

    var keys: [any CodingKey] {
        var keys: [any CodingKey] = []
        var step = self
        while true {
            switch step {
            case .root:
                return keys.reversed()
            case .key(let key, let parent):
                keys.append(key)
                step = parent
            case .index(let index, let parent):
                keys.append(IndexCodingKey(index))
                step = parent
            }
        }
    }
}

/// The last step to a value, held unboxed until a nested decoder needs the whole chain.
enum FormCodingStep {
    case none
    case key(any CodingKey)
    case index(Int)

    func path(from parent: FormCodingPath) -> FormCodingPath {
        switch self {
        case .none: return parent
        case .key(let key): return .key(key, parent: parent)
        case .index(let index): return .index(index, parent: parent)
        }
    }
}
