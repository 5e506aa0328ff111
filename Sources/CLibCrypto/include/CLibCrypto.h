#ifndef PAYRPC_CLIBCRYPTO_H
#define PAYRPC_CLIBCRYPTO_H
/* OpenSSL's libcrypto (Debian's libssl-dev, OpenSSL 3.0): the digests, MACs, key derivations,
   AEAD cipher, random bytes and constant-time comparison of the store's secrets. Only the
   3.0 API: nothing deprecated is visible to Swift.

   libcrypto is loaded with dlopen(3) on the first hash, seal or random draw, not linked: a start
   that answers without one never maps it nor pays its relocations. The declarations come from
   OpenSSL's headers; CLibCrypto.c defines the functions the gateway calls, each forwarding to
   libcrypto's own. Builds against libssl-dev; runs with libcrypto.so.3 (libssl3). */
#define OPENSSL_API_COMPAT 30000
#define OPENSSL_NO_DEPRECATED
#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/kdf.h>
#include <openssl/rand.h>
#include <stddef.h>

/** Loads libcrypto once (later calls return the first call's outcome): 1 when it is loaded, else
    0 with the reason in `error` when `error` is not NULL (which library was tried and what dlopen
    said). The environment variable PAYRPC_LIBCRYPTO names the library to load instead of
    libcrypto.so.3. Call it before any other function here: one called while libcrypto is not
    loaded stops the process. */
int payrpc_crypto_load(char *error, size_t error_size);
#endif
