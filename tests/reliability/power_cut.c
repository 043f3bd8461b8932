/* A power cut for a Redis-compatible server, loaded with LD_PRELOAD (tests/reliability/test_power_cut.py).
 *
 * A write to the append-only file (appendonlydir/…incr.aof) is held in this process's memory, as a
 * disk's cache holds it, and reaches the file only when the server asks for it to be made durable
 * (fsync or fdatasync on that file; closing it too). Killing the server with SIGKILL is then a
 * power cut: whatever it wrote but did not sync is gone, whatever it synced is on disk.
 *
 * Each sync is noted in the file named by POWER_CUT_LOG as "<CLOCK_MONOTONIC ns> <bytes>", so that
 * a test knows when the server last synced.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#define MAX_FD 4096

struct held {
    char *bytes;
    size_t size;
    size_t capacity;
};

static struct held held[MAX_FD];
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static ssize_t (*real_write)(int, const void *, size_t);
static int (*real_fsync)(int);
static int (*real_fdatasync)(int);
static int (*real_close)(int);
static int log_fd = -1;

__attribute__((constructor)) static void find_the_real_calls(void) {
    real_write = dlsym(RTLD_NEXT, "write");
    real_fsync = dlsym(RTLD_NEXT, "fsync");
    real_fdatasync = dlsym(RTLD_NEXT, "fdatasync");
    real_close = dlsym(RTLD_NEXT, "close");
    const char *log = getenv("POWER_CUT_LOG");
    if (log != NULL) log_fd = open(log, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
}

/* Whether `fd` is an append-only file of commands (not the base snapshot, not the manifest). */
static int is_aof(int fd) {
    char link[64], path[4096];
    if (fd < 0 || fd >= MAX_FD) return 0;
    snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
    ssize_t n = readlink(link, path, sizeof path - 1);
    if (n <= 0) return 0;
    path[n] = '\0';
    size_t suffix = strlen(".incr.aof");
    return (size_t)n > suffix && strcmp(path + n - suffix, ".incr.aof") == 0;
}

static void hold(int fd, const void *bytes, size_t size) {
    struct held *h = &held[fd];
    if (h->size + size > h->capacity) {
        h->capacity = (h->size + size) * 2;
        h->bytes = realloc(h->bytes, h->capacity);
        if (h->bytes == NULL) abort();
    }
    memcpy(h->bytes + h->size, bytes, size);
    h->size += size;
}

static void note(size_t size) {
    char line[64];
    struct timespec now;
    if (log_fd < 0 || clock_gettime(CLOCK_MONOTONIC, &now) != 0) return;
    int n = snprintf(line, sizeof line, "%lld %zu\n", (long long)now.tv_sec * 1000000000LL + now.tv_nsec, size);
    real_write(log_fd, line, (size_t)n);
}

/* Hand what `fd` holds to the file; the caller holds the lock. */
static int release(int fd) {
    struct held *h = &held[fd];
    size_t done = 0;
    while (done < h->size) {
        ssize_t n = real_write(fd, h->bytes + done, h->size - done);
        if (n < 0) return -1;
        done += (size_t)n;
    }
    h->size = 0;
    return 0;
}

ssize_t write(int fd, const void *bytes, size_t size) {
    if (!is_aof(fd)) return real_write(fd, bytes, size);
    pthread_mutex_lock(&lock);
    hold(fd, bytes, size);
    pthread_mutex_unlock(&lock);
    return (ssize_t)size;
}

ssize_t writev(int fd, const struct iovec *parts, int count) {
    static ssize_t (*real_writev)(int, const struct iovec *, int);
    if (real_writev == NULL) real_writev = dlsym(RTLD_NEXT, "writev");
    if (!is_aof(fd)) return real_writev(fd, parts, count);
    ssize_t total = 0;
    pthread_mutex_lock(&lock);
    for (int i = 0; i < count; i++) {
        hold(fd, parts[i].iov_base, parts[i].iov_len);
        total += (ssize_t)parts[i].iov_len;
    }
    pthread_mutex_unlock(&lock);
    return total;
}

static int sync_with(int (*real_sync)(int), int fd) {
    if (!is_aof(fd)) return real_sync(fd);
    pthread_mutex_lock(&lock);
    size_t size = held[fd].size;
    int failed = release(fd);
    pthread_mutex_unlock(&lock);
    if (failed) return -1;
    int result = real_sync(fd);
    note(size);
    return result;
}

int fsync(int fd) { return sync_with(real_fsync, fd); }

int fdatasync(int fd) { return sync_with(real_fdatasync, fd); }

int close(int fd) {
    if (is_aof(fd)) {
        pthread_mutex_lock(&lock);
        release(fd);
        pthread_mutex_unlock(&lock);
    }
    return real_close(fd);
}
