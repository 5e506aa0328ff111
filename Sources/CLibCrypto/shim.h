#ifndef PAYRPC_CLIBCRYPTO_SHIM_H
#define PAYRPC_CLIBCRYPTO_SHIM_H
/* OpenSSL's libcrypto (Debian's libssl-dev, OpenSSL 3.0): the digests, MACs, key derivations,
   AEAD cipher, random bytes and constant-time comparison of the store's secrets. Only the
   3.0 API: nothing deprecated is visible to Swift. */
#define OPENSSL_API_COMPAT 30000
#define OPENSSL_NO_DEPRECATED
#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/kdf.h>
#include <openssl/rand.h>
#endif
