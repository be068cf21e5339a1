// The parts of OpenSSL (libssl, libcrypto; 1.1.1 or 3.x) the TLS client session uses, plus inline wrappers
// for the macros Swift cannot import (SSL_set_tlsext_host_name, SSL_CTX_set_min_proto_version …).
#ifndef STREAMKIT_COPENSSL_SHIM_H
#define STREAMKIT_COPENSSL_SHIM_H
#include <openssl/ssl.h>
#include <openssl/err.h>
#include <openssl/bio.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>
#include <openssl/x509_vfy.h>

static inline long streamkit_ssl_set_server_name(SSL *ssl, const char *name) {
    return SSL_set_tlsext_host_name(ssl, name);
}
static inline int streamkit_ssl_ctx_set_min_tls12(SSL_CTX *context) {
    return (int)SSL_CTX_set_min_proto_version(context, TLS1_2_VERSION);
}
static inline unsigned long streamkit_x509_v_flag_partial_chain(void) { return X509_V_FLAG_PARTIAL_CHAIN; }
static inline int streamkit_ssl_verify_peer(void) { return SSL_VERIFY_PEER; }
static inline int streamkit_ssl_verify_none(void) { return SSL_VERIFY_NONE; }
static inline int streamkit_x509_v_ok(void) { return X509_V_OK; }
static inline long streamkit_ssl_mode_partial_writes(void) {
    return SSL_MODE_ENABLE_PARTIAL_WRITE | SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER;
}
static inline long streamkit_ssl_ctx_set_mode(SSL_CTX *context, long mode) { return SSL_CTX_set_mode(context, mode); }
static inline size_t streamkit_bio_pending(BIO *bio) { return BIO_ctrl_pending(bio); }
static inline int streamkit_bio_set_eof_on_empty(BIO *bio) { return (int)BIO_set_mem_eof_return(bio, -1); }
#endif
