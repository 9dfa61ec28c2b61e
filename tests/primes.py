"""Primality by Miller-Rabin (the curve tests' check that p and r are prime)."""


def strong_probable_prime(n: int, base: int) -> bool:
    """Whether n passes Miller-Rabin's test to ``base``."""
    d, s = n - 1, 0
    while d % 2 == 0:
        d, s = d // 2, s + 1
    y = pow(base, d, n)
    if y in (1, n - 1):
        return True
    for _ in range(s - 1):
        y = y * y % n
        if y == n - 1:
            return True
    return False


def is_prime(n: int) -> bool:
    """Miller-Rabin to the 40 bases 2..41 (no composite of this size passes them all in
    practice; the curves' primes are the EIPs')."""
    return all(strong_probable_prime(n, base) for base in range(2, 42))
