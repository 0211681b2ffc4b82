#!/usr/bin/env python3
"""Known answers of libeh's random stream, computed independently of libeh.

Prints the expected values that tests/libeh/test_random.c embeds (run once;
rerun only when docs/random.md's stream changes, with a new version):
Philox4x32-10 (checked against Random123's vectors below) and the
conversions of docs/random.md.  Version 2 (uniform and normal):
  group g -> block Philox(counter = (g lo, g hi, call, 2^31), key = seed)
  f64: uniform element i uses words 2k, 2k+1 of block i // 2 (k = i % 2);
       normal pair j = i // 2 uses block j: u1 from words 0, 1, u2 from 2, 3
  f32: element i uses block i // 4; uniform word i % 4; normal pair
       (i % 4) // 2 uses words 2p, 2p + 1.
The f32 normal is computed here in double (libeh uses float polynomials),
so the test compares it with a tolerance; everything else is exact.
"""
import math
import struct

M0, M1, W0, W1 = 0xD2511F53, 0xCD9E8D57, 0x9E3779B9, 0xBB67AE85
MASK = 0xFFFFFFFF


def philox(ctr, key):
    c0, c1, c2, c3 = ctr
    k0, k1 = key
    for _ in range(10):
        p0, p1 = M0 * c0, M1 * c2
        c0, c1, c2, c3 = ((p1 >> 32) ^ c1 ^ k0) & MASK, p1 & MASK, ((p0 >> 32) ^ c3 ^ k1) & MASK, p0 & MASK
        k0, k1 = (k0 + W0) & MASK, (k1 + W1) & MASK
    return [c0, c1, c2, c3]


assert philox([0, 0, 0, 0], [0, 0]) == [0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8]
assert philox([MASK] * 4, [MASK, MASK]) == [0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd]
assert philox([0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344], [0xa4093822, 0x299f31d0]) == \
    [0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1]


def f32(x):
    return struct.unpack('f', struct.pack('f', x))[0]


def block(seed, call, g):
    return philox([g & MASK, g >> 32, call, 0x80000000], [seed & MASK, seed >> 32])


def u53(hi, lo):
    return (((hi << 32) | lo) >> 11) * 2.0 ** -53


def uniform_f64(seed, call, n, low, high):
    out = []
    for i in range(n):
        w = block(seed, call, i // 2)
        k = i % 2
        out.append(low + (high - low) * u53(w[2 * k], w[2 * k + 1]))
    return out


def normal_f64(seed, call, n, mean, std):
    out = []
    for i in range(n):
        w = block(seed, call, i // 2)
        u1 = ((((w[0] << 32) | w[1]) >> 11) + 1) * 2.0 ** -53
        r, t = math.sqrt(-2 * math.log(u1)), 2 * math.pi * u53(w[2], w[3])
        out.append(mean + std * (r * math.sin(t) if i % 2 else r * math.cos(t)))
    return out


def uniform_f32(seed, call, n, low, high):
    return [f32(low + (high - low) * ((block(seed, call, i // 4)[i % 4] >> 8) * 2.0 ** -24))
            for i in range(n)]


def normal_f32(seed, call, n, mean, std):
    out = []
    for i in range(n):
        w = block(seed, call, i // 4)
        p = (i % 4) // 2
        w1, w2 = w[2 * p], w[2 * p + 1]
        u1 = f32(f32(float(w1)) + 1.0) * 2.0 ** -32
        r = math.sqrt(-2 * math.log(u1))
        q, octant, f = w2 >> 30, (w2 >> 29) & 1, w2 & 0x1FFFFFFF
        a = f32(float((1 << 29) - f if octant else f)) * f32(math.pi / 2 / 2 ** 30)
        phi = math.pi / 2 - a if octant else a
        theta = q * math.pi / 2 + phi
        z = r * math.sin(theta) if i % 2 else r * math.cos(theta)
        out.append(f32(mean + std * z))
    return out


def show(name, xs):
    print('%s: {%s}' % (name, ', '.join(repr(x) for x in xs)))


# the calls of test_uniform_known_values and test_other_known_values
show('uniform f64 seed 0 call 0 [0,1)', uniform_f64(0, 0, 4, 0.0, 1.0))
show('uniform f64 seed 0 call 1 [0,1)', uniform_f64(0, 1, 4, 0.0, 1.0))
show('uniform f64 seed 0 call 2 [-2,3)', uniform_f64(0, 2, 4, -2.0, 3.0))
show('uniform f64 seed 0x0123456789abcdef call 0', uniform_f64(0x0123456789abcdef, 0, 4, 0.0, 1.0))
show('uniform f32 seed 5 call 0 [0,1)', uniform_f32(5, 0, 9, 0.0, 1.0))
show('normal f64 seed 42 call 0', normal_f64(42, 0, 4, 0.0, 1.0))
show('normal f32 seed 7 call 0 mean 1 std 2', normal_f32(7, 0, 9, 1.0, 2.0))
