/* Keccak-256 as Ethereum uses it (original Keccak padding, not NIST SHA3-256),
 * for the interpreters' KECCAK256. */
#ifndef EVM384_KECCAK256_H
#define EVM384_KECCAK256_H

#include <stddef.h>
#include <stdint.h>

/* out[0..32) = Keccak-256 of data[0..len). */
void evm_keccak256(const uint8_t *data, size_t len, uint8_t *out);

#endif
