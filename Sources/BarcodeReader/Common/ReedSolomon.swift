/// Arithmetic in GF(2^8) for a given primitive polynomial.
struct GaloisField: Sendable {
    let exp: [Int]
    let log: [Int]
    /// First power of alpha used by the generator polynomial (0 for QR Code, 1 for Data Matrix).
    let generatorBase: Int

    /// QR Code: x^8 + x^4 + x^3 + x^2 + 1, generator base 0.
    static let qrCode = GaloisField(primitive: 0x011D, generatorBase: 0)
    /// Data Matrix: x^8 + x^5 + x^3 + x^2 + 1, generator base 1.
    static let dataMatrix = GaloisField(primitive: 0x012D, generatorBase: 1)

    init(primitive: Int, generatorBase: Int) {
        var exp = [Int](repeating: 0, count: 512)
        var log = [Int](repeating: 0, count: 256)
        var x = 1
        for i in 0..<255 {
            exp[i] = x
            log[x] = i
            x <<= 1
            if x >= 256 { x ^= primitive }
        }
        for i in 255..<512 { exp[i] = exp[i - 255] }
        self.exp = exp
        self.log = log
        self.generatorBase = generatorBase
    }

    @inline(__always)
    func multiply(_ a: Int, _ b: Int) -> Int {
        a == 0 || b == 0 ? 0 : self.exp[self.log[a] + self.log[b]]
    }

    @inline(__always)
    func inverse(_ a: Int) -> Int { self.exp[255 - self.log[a]] }

    /// Alpha to the power `e` (any integer).
    @inline(__always)
    func power(_ e: Int) -> Int { self.exp[((e % 255) + 255) % 255] }
}

/// Reed–Solomon error correction (syndromes, Berlekamp–Massey, Chien search, Forney).
enum ReedSolomon {
    /// Encodes: returns `ecCount` check symbols for `data` (used by tests and to build fixtures).
    static func encode(_ data: [Int], ecCount: Int, field: GaloisField) -> [Int] {
        // Generator g(x) = prod (x - alpha^(base + i)); coefficients highest degree first.
        var g = [1]
        for i in 0..<ecCount {
            let root = field.power(field.generatorBase + i)
            var next = [Int](repeating: 0, count: g.count + 1)
            for (k, c) in g.enumerated() {
                next[k] ^= c
                next[k + 1] ^= field.multiply(c, root)
            }
            g = next
        }
        var remainder = data + [Int](repeating: 0, count: ecCount)
        for i in 0..<data.count {
            let coef = remainder[i]
            if coef == 0 { continue }
            for k in 1..<g.count { remainder[i + k] ^= field.multiply(g[k], coef) }
        }
        return Array(remainder[data.count...])
    }

    /// Corrects `codewords` (data followed by `ecCount` check symbols) in place.
    /// - Returns: the number of corrected symbols.
    /// - Throws: ``BarcodeReaderError`` `.uncorrectable` when there are more errors than the code can fix.
    @discardableResult
    static func decode(_ codewords: inout [Int], ecCount: Int, field: GaloisField) throws(BarcodeReaderError) -> Int {
        let n = codewords.count
        guard ecCount > 0, n > ecCount, n <= 255 else {
            throw BarcodeReaderError(.uncorrectable, "bad block size")
        }
        guard codewords.allSatisfy({ 0...255 ~= $0 }) else { throw BarcodeReaderError(.uncorrectable, "not a byte") }
        // Syndromes S_i = r(alpha^(base + i)), r(x) with codewords[0] as the highest coefficient: Horner's rule with
        // the multiplication by x in the log domain (x is never 0), on the tables' buffers (a decode of a sampled
        // grid that is not a symbol spends most of its time here).
        var syndromes = [Int](repeating: 0, count: ecCount)
        var hasError = false
        field.exp.withUnsafeBufferPointer { exp in
            field.log.withUnsafeBufferPointer { log in
                codewords.withUnsafeBufferPointer { cw in
                    for i in 0..<ecCount {
                        let logX = (field.generatorBase + i) % 255
                        var v = 0
                        for c in cw { v = (v == 0 ? 0 : exp[log[v] + logX]) ^ c }
                        syndromes[i] = v
                        if v != 0 { hasError = true }
                    }
                }
            }
        }
        if !hasError { return 0 }
        // Berlekamp–Massey: error locator Lambda(x), lowest coefficient first.
        var lambda = [Int](repeating: 0, count: ecCount + 1)
        var prev = [Int](repeating: 0, count: ecCount + 1)
        lambda[0] = 1
        prev[0] = 1
        var l = 0
        var m = 1
        var b = 1
        for step in 0..<ecCount {
            var d = syndromes[step]
            if l > 0 {
                for i in 1...l { d ^= field.multiply(lambda[i], syndromes[step - i]) }
            }
            if d == 0 {
                m += 1
                continue
            }
            let coef = field.multiply(d, field.inverse(b))
            if 2 * l <= step {
                let saved = lambda
                for i in 0..<(ecCount + 1 - m) where prev[i] != 0 {
                    lambda[i + m] ^= field.multiply(coef, prev[i])
                }
                l = step + 1 - l
                prev = saved
                b = d
                m = 1
            } else {
                for i in 0..<(ecCount + 1 - m) where prev[i] != 0 {
                    lambda[i + m] ^= field.multiply(coef, prev[i])
                }
                m += 1
            }
        }
        guard l > 0, 2 * l <= ecCount else { throw BarcodeReaderError(.uncorrectable, "too many errors") }
        // Chien search over the positions of this block: error at power e <=> Lambda(alpha^-e) == 0.
        var positions: [Int] = []
        field.exp.withUnsafeBufferPointer { exp in
            field.log.withUnsafeBufferPointer { log in
                lambda.withUnsafeBufferPointer { lambda in
                    for e in 0..<n {
                        let logXInv = (255 - e % 255) % 255  // alpha^-e
                        var v = 0
                        for i in stride(from: l, through: 0, by: -1) {
                            v = (v == 0 ? 0 : exp[log[v] + logXInv]) ^ lambda[i]
                        }
                        if v == 0 { positions.append(e) }
                    }
                }
            }
        }
        guard positions.count == l else { throw BarcodeReaderError(.uncorrectable, "locator roots mismatch") }
        // Omega(x) = S(x) * Lambda(x) mod x^ecCount.
        var omega = [Int](repeating: 0, count: ecCount)
        for i in 0..<ecCount {
            var v = 0
            for j in 0...min(i, l) { v ^= field.multiply(syndromes[i - j], lambda[j]) }
            omega[i] = v
        }
        for e in positions {
            let xInv = field.power(-e)
            var num = 0
            for i in stride(from: ecCount - 1, through: 0, by: -1) { num = field.multiply(num, xInv) ^ omega[i] }
            // Formal derivative: odd terms of Lambda.
            var den = 0
            var i = 1
            var xPow = 1
            let xInv2 = field.multiply(xInv, xInv)
            while i <= l {
                den ^= field.multiply(lambda[i], xPow)
                xPow = field.multiply(xPow, xInv2)
                i += 2
            }
            guard den != 0 else { throw BarcodeReaderError(.uncorrectable, "zero derivative") }
            // Forney with first consecutive root alpha^base: e = X^(1-base) * Omega(X^-1) / Lambda'(X^-1).
            var magnitude = field.multiply(num, field.inverse(den))
            magnitude = field.multiply(magnitude, field.power(e * (1 - field.generatorBase)))
            let index = n - 1 - e
            codewords[index] ^= magnitude
        }
        return l
    }
}
