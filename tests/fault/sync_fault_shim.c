// An LD_PRELOAD library that injects faults into fsync and fdatasync, for durability tests
// (sync_fault.h drives it). It is configured by one variable, HIGGINS_SYNC_FAULT_DIR, a folder:
//
// - While <dir>/slow exists, every fsync and fdatasync first writes the path of the file being
//   synced to <dir>/held and waits (up to 60 s) until <dir>/slow is removed. So a test can stop
//   a process inside a sync, after its writes and before they are durable.
// - After every successful sync of a regular file, it appends "<size> <path>\n" to
//   <dir>/synced.log, where size is the file's size before the sync began: those bytes are on
//   the disk. The last line of a path gives what a power cut would leave of it.
//
// Without the variable the calls go straight through. Written in C without sanitizers, so that it
// can be preloaded into any process, including ones built with AddressSanitizer (which must then
// run with ASAN_OPTIONS=verify_asan_link_order=0).
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/// Present so that a process can check the shim is loaded (dlsym(RTLD_DEFAULT, ...)).
int higgins_sync_fault_loaded = 1;

static const char* FaultDir(void) {
  return getenv("HIGGINS_SYNC_FAULT_DIR");
}

static int Exists(const char* path) {
  struct stat st;
  return stat(path, &st) == 0;
}

static void WriteWhole(const char* path, const char* text, int flags) {
  int fd = open(path, flags | O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0) return;
  size_t left = strlen(text);
  while (left > 0) {
    ssize_t n = write(fd, text, left);
    if (n <= 0) break;
    text += n;
    left -= (size_t)n;
  }
  close(fd);
}

static void PathOf(int fd, char* out, size_t size) {
  char link[64];
  snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
  ssize_t n = readlink(link, out, size - 1);
  out[n > 0 ? n : 0] = '\0';
}

static void HoldWhileSlow(const char* dir, const char* path) {
  char slow[4096], held[4096];
  snprintf(slow, sizeof slow, "%s/slow", dir);
  if (!Exists(slow)) return;
  snprintf(held, sizeof held, "%s/held", dir);
  char line[4200];
  snprintf(line, sizeof line, "%s\n", path);
  WriteWhole(held, line, O_APPEND);
  const struct timespec tick = {0, 10 * 1000 * 1000};
  for (int i = 0; i < 6000 && Exists(slow); ++i) nanosleep(&tick, NULL);
}

static int Sync(int fd, const char* name) {
  int (*real)(int) = (int (*)(int))dlsym(RTLD_NEXT, name);
  if (real == NULL) {
    errno = ENOSYS;
    return -1;
  }
  const char* dir = FaultDir();
  if (dir == NULL) return real(fd);
  const int saved_errno = errno;
  char path[4096];
  PathOf(fd, path, sizeof path);
  struct stat st;
  const int regular = fstat(fd, &st) == 0 && S_ISREG(st.st_mode);
  HoldWhileSlow(dir, path);
  errno = saved_errno;
  const int rc = real(fd);
  if (rc == 0 && regular) {
    const int sync_errno = errno;
    char log[4096], line[4200];
    snprintf(log, sizeof log, "%s/synced.log", dir);
    snprintf(line, sizeof line, "%lld %s\n", (long long)st.st_size, path);
    WriteWhole(log, line, O_APPEND);
    errno = sync_errno;
  }
  return rc;
}

int fsync(int fd) {
  return Sync(fd, "fsync");
}
int fdatasync(int fd) {
  return Sync(fd, "fdatasync");
}
