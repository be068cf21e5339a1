#define _GNU_SOURCE
#include <sys/socket.h>
#include "CPOSIXShims.h"

int cposix_accept4(int socket, struct sockaddr *address, socklen_t *length, int flags) {
    return accept4(socket, address, length, flags);
}
