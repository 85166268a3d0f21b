/// The elements of one zip input that are waiting for their partners, oldest first.
@usableFromInline typealias ZipBuffer<Element: Sendable> = FIFO<Element>
