/*
 * The kernel's own floor for one small write into one loopback TCP socket, with no node in the way: N connected
 * pairs, a 180-byte frame written to each in a loop (the kernel delivers to the reader inside the write on
 * loopback), the readers drained between rounds. Prints the median of 5 rounds in microseconds per write.
 * Built and run by bench/fanout.ts when a C compiler is at hand: `cc -O2 -o write-floor write-floor.c`.
 */
#include <arpa/inet.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

static double now_us(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e6 + t.tv_nsec / 1e3;
}

static int cmp(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 4000;
  struct rlimit lim;
  getrlimit(RLIMIT_NOFILE, &lim);
  lim.rlim_cur = lim.rlim_max;
  setrlimit(RLIMIT_NOFILE, &lim);

  int one = 1, listener = socket(AF_INET, SOCK_STREAM, 0);
  struct sockaddr_in addr = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
  socklen_t len = sizeof addr;
  if (bind(listener, (struct sockaddr *)&addr, len) || listen(listener, 4096) ||
      getsockname(listener, (struct sockaddr *)&addr, &len)) {
    perror("listen");
    return 1;
  }
  int *readers = malloc(n * sizeof *readers), *writers = malloc(n * sizeof *writers);
  for (int i = 0; i < n; i++) {
    readers[i] = socket(AF_INET, SOCK_STREAM, 0);
    if (connect(readers[i], (struct sockaddr *)&addr, sizeof addr) || (writers[i] = accept(listener, NULL, NULL)) < 0) {
      perror("connect");
      return 1;
    }
    setsockopt(writers[i], IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  }
  char frame[180], drain[65536];
  memset(frame, 'a', sizeof frame);
  double rounds[5];
  for (int r = 0; r < 5; r++) {
    double t = now_us();
    for (int i = 0; i < n; i++)
      if (write(writers[i], frame, sizeof frame) != sizeof frame) return 1;
    rounds[r] = (now_us() - t) / n;
    for (int i = 0; i < n; i++)
      if (read(readers[i], drain, sizeof drain) <= 0) return 1;
  }
  qsort(rounds, 5, sizeof *rounds, cmp);
  printf("%.3f\n", rounds[2]);
  return 0;
}
