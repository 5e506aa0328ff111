/* libcrypto reached through dlopen(3) on first use (see CLibCrypto.h). Each OpenSSL function the
   gateway calls is defined here with OpenSSL's own signature and forwards to libcrypto's
   definition, so the Swift side calls EVP_Digest & co. as if libcrypto were linked. Nothing here
   links against it. */

#include "CLibCrypto.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

/* Every libcrypto function the gateway calls: X(return type, name, parameters, arguments). */
#define PAYRPC_CRYPTO_FUNCTIONS(X)                                                                       \
    X(int, CRYPTO_memcmp, (const void *in_a, const void *in_b, size_t len), (in_a, in_b, len))           \
    X(void, ERR_clear_error, (void), ())                                                                 \
    X(void, ERR_error_string_n, (unsigned long e, char *buf, size_t len), (e, buf, len))                 \
    X(unsigned long, ERR_get_error, (void), ())                                                          \
    X(int, EVP_CIPHER_CTX_ctrl, (EVP_CIPHER_CTX * ctx, int type, int arg, void *ptr), (ctx, type, arg, ptr)) \
    X(void, EVP_CIPHER_CTX_free, (EVP_CIPHER_CTX * c), (c))                                              \
    X(EVP_CIPHER_CTX *, EVP_CIPHER_CTX_new, (void), ())                                                  \
    X(int, EVP_CipherInit_ex,                                                                            \
      (EVP_CIPHER_CTX * ctx, const EVP_CIPHER *cipher, ENGINE *impl, const unsigned char *key,           \
       const unsigned char *iv, int enc),                                                                \
      (ctx, cipher, impl, key, iv, enc))                                                                 \
    X(int, EVP_CipherUpdate, (EVP_CIPHER_CTX * ctx, unsigned char *out, int *outl, const unsigned char *in, int inl), \
      (ctx, out, outl, in, inl))                                                                         \
    X(int, EVP_DecryptFinal_ex, (EVP_CIPHER_CTX * ctx, unsigned char *outm, int *outl), (ctx, outm, outl)) \
    X(int, EVP_DecryptUpdate, (EVP_CIPHER_CTX * ctx, unsigned char *out, int *outl, const unsigned char *in, int inl), \
      (ctx, out, outl, in, inl))                                                                         \
    X(int, EVP_Digest,                                                                                   \
      (const void *data, size_t count, unsigned char *md, unsigned int *size, const EVP_MD *type, ENGINE *impl), \
      (data, count, md, size, type, impl))                                                               \
    X(int, EVP_EncryptFinal_ex, (EVP_CIPHER_CTX * ctx, unsigned char *out, int *outl), (ctx, out, outl)) \
    X(int, EVP_EncryptUpdate, (EVP_CIPHER_CTX * ctx, unsigned char *out, int *outl, const unsigned char *in, int inl), \
      (ctx, out, outl, in, inl))                                                                         \
    X(int, EVP_PKEY_CTX_add1_hkdf_info, (EVP_PKEY_CTX * ctx, const unsigned char *info, int infolen),    \
      (ctx, info, infolen))                                                                              \
    X(void, EVP_PKEY_CTX_free, (EVP_PKEY_CTX * ctx), (ctx))                                              \
    X(EVP_PKEY_CTX *, EVP_PKEY_CTX_new_id, (int id, ENGINE *e), (id, e))                                 \
    X(int, EVP_PKEY_CTX_set1_hkdf_key, (EVP_PKEY_CTX * ctx, const unsigned char *key, int keylen),       \
      (ctx, key, keylen))                                                                                \
    X(int, EVP_PKEY_CTX_set_hkdf_md, (EVP_PKEY_CTX * ctx, const EVP_MD *md), (ctx, md))                  \
    X(int, EVP_PKEY_CTX_set_hkdf_mode, (EVP_PKEY_CTX * ctx, int mode), (ctx, mode))                      \
    X(int, EVP_PKEY_derive, (EVP_PKEY_CTX * ctx, unsigned char *key, size_t *keylen), (ctx, key, keylen)) \
    X(int, EVP_PKEY_derive_init, (EVP_PKEY_CTX * ctx), (ctx))                                            \
    X(const EVP_CIPHER *, EVP_aes_256_gcm, (void), ())                                                   \
    X(const EVP_MD *, EVP_sha256, (void), ())                                                            \
    X(unsigned char *, HMAC,                                                                             \
      (const EVP_MD *evp_md, const void *key, int key_len, const unsigned char *data, size_t data_len,   \
       unsigned char *md, unsigned int *md_len),                                                         \
      (evp_md, key, key_len, data, data_len, md, md_len))                                                \
    X(int, PKCS5_PBKDF2_HMAC,                                                                            \
      (const char *pass, int passlen, const unsigned char *salt, int saltlen, int iter, const EVP_MD *digest, \
       int keylen, unsigned char *out),                                                                  \
      (pass, passlen, salt, saltlen, iter, digest, keylen, out))                                         \
    X(int, RAND_bytes, (unsigned char *buf, int num), (buf, num))

static struct {
#define PAYRPC_CRYPTO_FIELD(type, name, parameters, arguments) type(*name) parameters;
    PAYRPC_CRYPTO_FUNCTIONS(PAYRPC_CRYPTO_FIELD)
#undef PAYRPC_CRYPTO_FIELD
    int loaded;
    char failure[300];
} crypto;

static pthread_once_t crypto_once = PTHREAD_ONCE_INIT;

static void load_crypto(void) {
    static const char *const names[] = {"libcrypto.so.3", "libcrypto.so", "libcrypto.3.dylib", "libcrypto.dylib"};
    const char *chosen = getenv("PAYRPC_LIBCRYPTO");
    void *library = NULL;
    if (chosen != NULL && chosen[0] != '\0') {
        library = dlopen(chosen, RTLD_NOW | RTLD_LOCAL);
        if (library == NULL) {
            snprintf(crypto.failure, sizeof crypto.failure, "libcrypto could not be loaded (PAYRPC_LIBCRYPTO=%s: %s)",
                     chosen, dlerror());
            return;
        }
    } else {
        for (size_t i = 0; i < sizeof names / sizeof names[0] && library == NULL; i++) {
            library = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
        }
        if (library == NULL) {
            snprintf(crypto.failure, sizeof crypto.failure, "libcrypto could not be loaded (libcrypto.so.3: %s)",
                     dlerror());
            return;
        }
    }
#define PAYRPC_CRYPTO_LOAD(type, name, parameters, arguments)                                            \
    *(void **)(&crypto.name) = dlsym(library, #name);                                                    \
    if (crypto.name == NULL) {                                                                           \
        snprintf(crypto.failure, sizeof crypto.failure, "the loaded libcrypto has no %s", #name);        \
        return;                                                                                          \
    }
    PAYRPC_CRYPTO_FUNCTIONS(PAYRPC_CRYPTO_LOAD)
#undef PAYRPC_CRYPTO_LOAD
    crypto.loaded = 1;
}

int payrpc_crypto_load(char *error, size_t error_size) {
    pthread_once(&crypto_once, load_crypto);
    if (!crypto.loaded && error != NULL && error_size > 0) snprintf(error, error_size, "%s", crypto.failure);
    return crypto.loaded;
}

/* A call before a successful payrpc_crypto_load is the caller's bug: stop rather than jump to NULL. */
static void require_loaded(const char *name) {
    if (crypto.loaded) return;
    fprintf(stderr, "payrpc: %s called before libcrypto was loaded\n", name);
    abort();
}

/* Hidden: these definitions are the gateway's own. Were they exported, a libssl that libcurl or
   libpq brings in could bind to them instead of to libcrypto's. */
#define PAYRPC_CRYPTO_FORWARD(type, name, parameters, arguments)                                         \
    __attribute__((visibility("hidden"))) type name parameters {                                         \
        require_loaded(#name);                                                                           \
        return crypto.name arguments;                                                                    \
    }
PAYRPC_CRYPTO_FUNCTIONS(PAYRPC_CRYPTO_FORWARD)
#undef PAYRPC_CRYPTO_FORWARD
