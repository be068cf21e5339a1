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

// ---- DTLS-SRTP and SRTP (WebRTC): libcrypto's EVP ciphers and MAC, and the DTLS macros Swift cannot import ----
#include <openssl/evp.h>
#include <openssl/core_names.h>
#include <openssl/params.h>
#include <openssl/rand.h>
#include <openssl/srtp.h>

/// An HMAC context keyed once; EVP_MAC_init(ctx, NULL, 0, NULL) restarts it with the same key for each packet.
static inline EVP_MAC_CTX *streamkit_hmac_sha1_new(const unsigned char *key, size_t length) {
    EVP_MAC *mac = EVP_MAC_fetch(NULL, "HMAC", NULL);
    if (mac == NULL) return NULL;
    EVP_MAC_CTX *context = EVP_MAC_CTX_new(mac);
    EVP_MAC_free(mac);
    if (context == NULL) return NULL;
    OSSL_PARAM params[2];
    params[0] = OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_DIGEST, (char *)"SHA1", 0);
    params[1] = OSSL_PARAM_construct_end();
    if (EVP_MAC_init(context, key, length, params) != 1) { EVP_MAC_CTX_free(context); return NULL; }
    return context;
}
static inline int streamkit_gcm_get_tag(EVP_CIPHER_CTX *context, unsigned char *tag, int length) {
    return EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_GCM_GET_TAG, length, tag);
}
static inline int streamkit_gcm_set_tag(EVP_CIPHER_CTX *context, unsigned char *tag, int length) {
    return EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_GCM_SET_TAG, length, tag);
}
static inline long streamkit_dtls_get_timeout(SSL *ssl, long *seconds, long *microseconds) {
    struct timeval value = {0, 0};
    long result = DTLSv1_get_timeout(ssl, &value);
    *seconds = (long)value.tv_sec;
    *microseconds = (long)value.tv_usec;
    return result;
}
static inline long streamkit_dtls_handle_timeout(SSL *ssl) { return DTLSv1_handle_timeout(ssl); }
static inline long streamkit_dtls_set_link_mtu(SSL *ssl, long mtu) { return DTLS_set_link_mtu(ssl, mtu); }
static inline uint64_t streamkit_ssl_op_no_query_mtu(void) { return SSL_OP_NO_QUERY_MTU; }
static inline int streamkit_ssl_verify_peer_required(void) {
    return SSL_VERIFY_PEER | SSL_VERIFY_FAIL_IF_NO_PEER_CERT;
}
static inline int streamkit_ssl_ctx_set_dtls12(SSL_CTX *context) {
    return (int)(SSL_CTX_set_min_proto_version(context, DTLS1_2_VERSION)
                 && SSL_CTX_set_max_proto_version(context, DTLS1_2_VERSION));
}
static inline long streamkit_ssl_ctx_set_ecdh_auto(SSL_CTX *context) {
    return SSL_CTX_set1_groups_list(context, "P-256:X25519:P-384");
}
static inline int streamkit_mbstring_asc(void) { return MBSTRING_ASC; }
static inline int streamkit_bio_reset(BIO *bio) { return (int)BIO_reset(bio); }
#endif
