#ifndef CPOSIX_SHIMS_H
#define CPOSIX_SHIMS_H

// What the Swift Glibc module does not bring in: epoll and eventfd (Linux only) and the TCP socket options.
// Declarations, and one wrapper; the POSIX module wraps them in Swift.
#ifdef __linux__
#include <sys/epoll.h>
#include <sys/eventfd.h>
#endif
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>

/// accept4(2), which glibc declares only under _GNU_SOURCE (defined in CPOSIXShims.c, not here, so the
/// importing module's view of the C library does not change).
int cposix_accept4(int socket, struct sockaddr *address, socklen_t *length, int flags);

#endif
