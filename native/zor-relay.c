/*
 * zor-relay: the zor wrapper's output path in native code. zor (src/zor/wrapper/native-child.ts)
 * starts it with the command; it owns the command's pty and copies the child's output straight to
 * zor's stdout, as script(1) does, and hands zor a copy of the same bytes on a pipe for detection,
 * off the hot path. A relay through Node paid a libuv read of at most 4 KiB, a Buffer and a stream
 * event per chunk, three times script(1)'s cost (docs/benchmarks.md, Z2).
 *
 * Usage: zor-relay [-r] [-s ROWS COLS] FILE [ARG...]
 *   -r             turn off output processing (OPOST) on the terminal before the child starts
 *   -s ROWS COLS   the child's size when there is no terminal to copy it from
 *
 * Descriptors, set up by zor:
 *   0  control: messages from zor, each a type byte, a 32-bit little-endian length and a payload:
 *        'i' bytes for the child's input        'j' zor's own bytes for stdout (between sequences)
 *        'w' copy the terminal's size (with pixels) to the child, answered with a `size` line
 *        'k' a signal (32-bit number) for the child   'o' output processing off again (SIGCONT)
 *      Its end means zor is done (or gone: the child, if still running, gets SIGHUP).
 *   1  zor's stdout: the child's bytes exactly, and zor's injections at escape-sequence boundaries.
 *   3  the copy of the child's output, for zor's parser. When zor reads slowly the copy queues
 *      here, and past COPY_LIMIT the child is not read. The copy leaves out only what the parser
 *      would scroll away unseen: the start of a long run of plain text (see "plain runs" below).
 *   4  status lines: `start PID ROWS COLS XPIXEL YPIXEL`, `size ROWS COLS XPIXEL YPIXEL`, and at the
 *      end, once every byte has been copied, `cut BYTES` (the bytes the copy left out) then
 *      `exit CODE SIGNAL` (CODE -1 for a signal death).
 *   5  zor's terminal (for its size and modes), when it has one.
 *
 * The child's pty gets the modes node-pty gives a pty (the fallback path) and the terminal's size
 * with pixels. SIGINT, SIGTERM, SIGHUP and SIGQUIT are ignored here (zor forwards them, once, with
 * 'k'); the child starts with every signal at its default.
 */
#if defined(__linux__)
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

enum { CONTROL_FD = 0, OUT_FD = 1, COPY_FD = 3, STATUS_FD = 4, TERMINAL_FD = 5 };
/** Above this much copy not yet taken by zor, the child is not read. */
#define COPY_LIMIT (4u << 20)
/** Above this much input not yet taken by the pty, zor's control pipe is not read. */
#define INPUT_LIMIT (1u << 20)
#define READ_BYTES 65536
/** After the child has exited, output that stops for this long has ended (a grandchild may hold the pty). */
#define TAIL_IDLE_MS 200
/**
 * A copy that is all plain text waits this long after the last write of the copy, so a flood
 * reaches zor in a few pieces, each cut to its tail (parse-feed.ts batches its writes the same).
 */
#define COPY_HOLD_MS 10
/**
 * A plain run in the copy queue longer than this is cut as it is read, not only when the copy is
 * written (zor may not be reading); after a cut that found too few line feeds, not again before the
 * run has doubled, so a long run without them is not scanned over and over.
 */
#define CUT_AT_BYTES 65536

/* ---- a growable byte queue ---- */

struct queue {
  unsigned char *data;
  size_t start, end, cap;
};

static size_t queue_length(const struct queue *q) { return q->end - q->start; }

static void queue_push(struct queue *q, const void *bytes, size_t length) {
  if (length == 0) return;
  if (q->start > 0 && q->end + length > q->cap) {
    memmove(q->data, q->data + q->start, q->end - q->start);
    q->end -= q->start;
    q->start = 0;
  }
  if (q->end + length > q->cap) {
    size_t cap = q->cap ? q->cap : 65536;
    while (cap < q->end + length) cap *= 2;
    unsigned char *grown = realloc(q->data, cap);
    if (grown == NULL) {
      perror("zor-relay");
      exit(70);
    }
    q->data = grown;
    q->cap = cap;
  }
  memcpy(q->data + q->end, bytes, length);
  q->end += length;
}

static void queue_drop(struct queue *q, size_t length) {
  q->start += length;
  if (q->start == q->end) q->start = q->end = 0;
}

/* ---- where an injection may go: the escape-sequence boundary of src/zor/wrapper/escape-boundary.ts ---- */

enum state { GROUND, UTF8, ESCAPE, ESCAPE_INTERMEDIATE, CSI, STRING, STRING_ESCAPE };

static enum state state = GROUND;
static int continuations = 0;
static int string_is_osc = 0;

/*
 * ---- plain runs: what the copy may leave out (src/zor/wrapper/plain-run.ts says why) ----
 *
 * A run of plain text (printable ASCII, CR, LF) read in the ground state only prints, returns and
 * feeds lines, so once it has fed more lines than zor's terminal keeps (its screen and
 * scrollback), the terminal ends in the same state whether it parsed the whole run or only its
 * tail from a CR with enough line feeds after it. That holds only while the scroll region is the
 * whole screen, and not after a C1 control (xterm may read it as the start of a sequence), the
 * conditions zor's own cut (parse-feed.ts) checks on its terminal. The relay cannot read zor's
 * terminal, so it follows the sequences that set a scroll region, for each of the two buffers, and
 * counts a region as possibly set unless a sequence plainly made it the whole screen again.
 */

/** The byte before, and whether a C1 control came since the last ESC (EscapeBoundary's afterC1). */
static unsigned char previous_byte = 0;
static int after_c1 = 0;
/** A scroll region may be set on the normal (0) or the alternate (1) buffer; the one in use. */
static int region_set[2] = {0, 0};
static int alternate = 0;
/** The most rows the terminal has had: zor's terminal keeps no more lines than this allows. */
static unsigned max_rows = 0;

/** Lost track (an odd buffer switch): no cut until a reset (RIS) puts everything back in a known state. */
static int region_unknown = 0;

/** The CSI sequence being read: its prefix (`?`, `>`...), whether it had intermediates, its params. */
static unsigned char csi_prefix = 0;
static int csi_intermediate = 0;
/** A form this machine does not follow exactly (sub-parameters, a prefix byte late, more than 2 params for DECSTBM). */
static int csi_odd = 0;
static unsigned csi_params[2];
static unsigned csi_value = 0;
static int csi_count = 0;
static int csi_bytes = 0;
/** One of the params is 47, 1047 or 1049 (the modes that switch buffers). */
static int csi_switches = 0;

static int is_plain(unsigned char byte) { return (byte >= 0x20 && byte <= 0x7e) || byte == '\r' || byte == '\n'; }

static void csi_start(void) {
  csi_prefix = 0;
  csi_intermediate = csi_odd = csi_count = csi_bytes = csi_switches = 0;
  csi_params[0] = csi_params[1] = 0;
  csi_value = 0;
}

static void csi_param_end(void) {
  if (csi_count < 2) csi_params[csi_count] = csi_value;
  if (csi_value == 47 || csi_value == 1047 || csi_value == 1049) csi_switches = 1;
  csi_count++;
  csi_value = 0;
}

/** A parameter or intermediate byte of a CSI sequence (0x20-0x3f). */
static void csi_byte(unsigned char byte) {
  int first = csi_bytes++ == 0;
  if (byte >= 0x3c && byte <= 0x3f) {
    if (first) csi_prefix = byte;
    else csi_odd = 1;
  } else if (byte >= 0x20 && byte <= 0x2f) {
    csi_intermediate = 1;
  } else if (csi_intermediate || byte == ':') {
    csi_odd = 1;
  } else if (byte == ';') {
    csi_param_end();
  } else if (csi_value < 100000) {
    csi_value = csi_value * 10 + (unsigned)(byte - '0');
  }
}

/** A CSI sequence ends: follow the scroll region (DECSTBM) and the buffer in use (modes 47, 1047, 1049). */
static void csi_end(unsigned char final) {
  if (csi_bytes > 0) csi_param_end();
  if (final == 'r') {
    unsigned top = csi_params[0], bottom = csi_count >= 2 ? csi_params[1] : 0;
    int whole = !csi_odd && !csi_prefix && !csi_intermediate && csi_count <= 2 && top <= 1 &&
                (bottom == 0 || bottom >= max_rows);
    region_set[alternate] = !whole;
  } else if ((final == 'h' || final == 'l') && csi_prefix == '?') {
    if (csi_odd || csi_intermediate) region_unknown = 1;
    else if (csi_switches) alternate = final == 'h';
  }
}

/** ESC c (RIS): xterm resets, with the normal buffer in use and no scroll region anywhere. */
static void reset(void) {
  region_set[0] = region_set[1] = 0;
  alternate = 0;
  region_unknown = 0;
}

static void escape_byte(unsigned char byte) {
  if (byte == 0x1b) return;
  if (byte == '[') {
    state = CSI;
    csi_start();
  } else if (byte == ']') {
    state = STRING;
    string_is_osc = 1;
  } else if (byte == 'P' || byte == 'X' || byte == '^' || byte == '_') {
    state = STRING;
    string_is_osc = 0;
  } else if (byte >= 0x20 && byte <= 0x2f) {
    state = ESCAPE_INTERMEDIATE;
  } else if (byte >= 0x30 && byte <= 0x7e) {
    state = GROUND;
    if (byte == 'c') reset();
  }
}

static void boundary_byte(unsigned char byte) {
  if ((byte == 0x18 || byte == 0x1a) && state != UTF8) {
    state = GROUND;
    return;
  }
  switch (state) {
  case UTF8:
    if (byte >= 0x80 && byte <= 0xbf) {
      if (--continuations == 0) state = GROUND;
      return;
    }
    state = GROUND;
    boundary_byte(byte);
    return;
  case GROUND:
    if (byte == 0x1b) state = ESCAPE;
    else if (byte >= 0xc2 && byte <= 0xdf) state = UTF8, continuations = 1;
    else if (byte >= 0xe0 && byte <= 0xef) state = UTF8, continuations = 2;
    else if (byte >= 0xf0 && byte <= 0xf4) state = UTF8, continuations = 3;
    return;
  case ESCAPE:
    escape_byte(byte);
    return;
  case ESCAPE_INTERMEDIATE:
    if (byte == 0x1b) state = ESCAPE;
    else if (byte >= 0x30 && byte <= 0x7e) state = GROUND;
    return;
  case CSI:
    if (byte == 0x1b) {
      state = ESCAPE;
    } else if (byte >= 0x40 && byte <= 0x7e) {
      state = GROUND;
      csi_end(byte);
    } else if (byte >= 0x20 && byte <= 0x3f) {
      csi_byte(byte);
    }
    return;
  case STRING:
    if (byte == 0x1b) state = STRING_ESCAPE;
    else if (byte == 0x07 && string_is_osc) state = GROUND;
    return;
  case STRING_ESCAPE:
    if (byte == '\\') {
      state = GROUND;
      return;
    }
    state = ESCAPE;
    escape_byte(byte);
    return;
  }
}

/** Bytes at the end of the copy queue that are a plain run, and the bytes the copy has left out. */
static size_t run_length = 0;
static unsigned long long cut_bytes = 0;

static void cut_run(struct queue *copy);

/**
 * Reads a chunk of the child's output (the escape-sequence boundary, the region, the plain run)
 * and, with `copy`, queues it for zor, cutting each plain run where it ends.
 */
static void scan(const unsigned char *bytes, size_t length, struct queue *copy) {
  size_t queued = 0;
  for (size_t i = 0; i < length; i++) {
    unsigned char byte = bytes[i];
    if (state == GROUND && !after_c1 && is_plain(byte)) {
      // A flood is nearly all plain text: skip through it in one loop.
      size_t from = i;
      while (i + 1 < length && is_plain(bytes[i + 1])) i++;
      run_length += i + 1 - from;
      previous_byte = bytes[i];
      continue;
    }
    if (copy != NULL && run_length > 0) {
      // The run ends here: once other output follows it, it is no longer the queue's last run.
      queue_push(copy, bytes + queued, i - queued);
      queued = i;
      cut_run(copy);
    }
    if (byte == 0x1b) after_c1 = 0;
    else if (previous_byte == 0xc2 && byte >= 0x80 && byte <= 0x9f) after_c1 = 1;
    run_length = 0;
    boundary_byte(byte);
    previous_byte = byte;
  }
  if (copy != NULL) queue_push(copy, bytes + queued, length - queued);
}

/**
 * Leaves out the start of the plain run at the end of the copy queue, as plain-run.ts's trimPlainRun
 * does: from the last CR that still has enough line feeds after it. Enough is 4 x rows + 100,
 * above what zor's terminal needs (2 x rows - 1 + its scrollback, max(2 x rows, 100), parse-feed.ts).
 */
static void cut_run(struct queue *copy) {
  size_t keep = 4 * (size_t)max_rows + 100, feeds = 0, position = run_length;
  // A run of no more bytes than line feeds to keep cannot hold them all.
  if (run_length <= keep || max_rows == 0 || region_unknown || region_set[alternate]) return;
  unsigned char *run = copy->data + copy->end - run_length;
  while (feeds < keep && position > 0) {
    if (run[--position] == '\n') feeds++;
  }
  if (feeds < keep || position == 0) return;
  size_t cut = position;
  while (cut > 0 && run[--cut] != '\r') {
  }
  if (cut == 0) return;
  memmove(run, run + cut, run_length - cut);
  copy->end -= cut;
  run_length -= cut;
  cut_bytes += cut;
}

static long long now_ms(void) {
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return (long long)now.tv_sec * 1000 + now.tv_nsec / 1000000;
}

/* ---- output ---- */

static int out_broken = 0;

/** Writes all of it to stdout, waiting while the terminal is full; a stdout gone away is dropped. */
static void write_out(const unsigned char *bytes, size_t length) {
  while (length > 0 && !out_broken) {
    ssize_t written = write(OUT_FD, bytes, length);
    if (written > 0) {
      bytes += written;
      length -= (size_t)written;
    } else if (written < 0 && errno == EAGAIN) {
      struct pollfd wait = {OUT_FD, POLLOUT, 0};
      poll(&wait, 1, -1);
    } else if (!(written < 0 && errno == EINTR)) {
      out_broken = 1;
    }
  }
}

__attribute__((format(printf, 1, 2)))
static void status_line(const char *format, ...) {
  char line[128];
  va_list args;
  va_start(args, format);
  int length = vsnprintf(line, sizeof line, format, args);
  va_end(args);
  if (length <= 0) return;
  const char *at = line;
  while (length > 0) {
    ssize_t written = write(STATUS_FD, at, (size_t)length);
    if (written < 0 && errno == EINTR) continue;
    if (written <= 0) return;
    at += written;
    length -= (int)written;
  }
}

/* ---- the terminal and the pty ---- */

static int terminal_ok = 0;

static void raw_output(void) {
  struct termios modes;
  if (!terminal_ok || tcgetattr(TERMINAL_FD, &modes) != 0) return;
  modes.c_oflag &= ~(tcflag_t)OPOST;
  tcsetattr(TERMINAL_FD, TCSANOW, &modes);
}

/** The terminal's size, or `fallback` without one. */
static struct winsize terminal_size(struct winsize fallback) {
  struct winsize size;
  if (terminal_ok && ioctl(TERMINAL_FD, TIOCGWINSZ, &size) == 0 && size.ws_row > 0 && size.ws_col > 0) return size;
  return fallback;
}

/** The modes node-pty gives a new pty, so a command sees the same terminal on either path. */
static void child_modes(struct termios *modes) {
  memset(modes, 0, sizeof *modes);
  modes->c_iflag = ICRNL | IXON | IXANY | IMAXBEL | BRKINT;
#ifdef IUTF8
  modes->c_iflag |= IUTF8;
#endif
  modes->c_oflag = OPOST | ONLCR;
  modes->c_cflag = CREAD | CS8 | HUPCL;
  modes->c_lflag = ICANON | ISIG | IEXTEN | ECHO | ECHOE | ECHOK | ECHOKE | ECHOCTL;
  modes->c_cc[VEOF] = 4;
  modes->c_cc[VEOL] = 0xff;
  modes->c_cc[VEOL2] = 0xff;
  modes->c_cc[VERASE] = 0x7f;
  modes->c_cc[VWERASE] = 23;
  modes->c_cc[VKILL] = 21;
  modes->c_cc[VREPRINT] = 18;
  modes->c_cc[VINTR] = 3;
  modes->c_cc[VQUIT] = 0x1c;
  modes->c_cc[VSUSP] = 26;
  modes->c_cc[VSTART] = 17;
  modes->c_cc[VSTOP] = 19;
  modes->c_cc[VLNEXT] = 22;
  modes->c_cc[VDISCARD] = 15;
  modes->c_cc[VMIN] = 1;
  modes->c_cc[VTIME] = 0;
#ifdef VDSUSP
  modes->c_cc[VDSUSP] = 25;
#endif
#ifdef VSTATUS
  modes->c_cc[VSTATUS] = 20;
#endif
  cfsetispeed(modes, B38400);
  cfsetospeed(modes, B38400);
}

static const int IGNORED[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE, SIGTTOU};

static void child_exec(const char *slave_name, const struct winsize *size, char **argv) {
  setsid();
  int slave = open(slave_name, O_RDWR);
  if (slave < 0) _exit(126);
#ifdef TIOCSCTTY
  ioctl(slave, TIOCSCTTY, 0);
#endif
  struct termios modes;
  child_modes(&modes);
  tcsetattr(slave, TCSANOW, &modes);
  ioctl(slave, TIOCSWINSZ, size);
  dup2(slave, 0);
  dup2(slave, 1);
  dup2(slave, 2);
  if (slave > 2) close(slave);
  for (int fd = 3; fd <= TERMINAL_FD; fd++) close(fd);
  for (size_t i = 0; i < sizeof IGNORED / sizeof IGNORED[0]; i++) signal(IGNORED[i], SIG_DFL);
  signal(SIGCHLD, SIG_DFL);
  sigset_t none;
  sigemptyset(&none);
  sigprocmask(SIG_SETMASK, &none, NULL);
  execvp(argv[0], argv);
  fprintf(stderr, "zor: %s: %s\r\n", argv[0], strerror(errno));
  _exit(errno == ENOENT ? 127 : 126);
}

/* ---- the relay ---- */

static int wake_pipe[2];

static void on_child(int signal_number) {
  (void)signal_number;
  int saved = errno;
  ssize_t ignored = write(wake_pipe[1], "c", 1);
  (void)ignored;
  errno = saved;
}

static void set_flags(int fd, int flags) { fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | flags); }

static uint32_t read_u32(const unsigned char *bytes) {
  return (uint32_t)bytes[0] | (uint32_t)bytes[1] << 8 | (uint32_t)bytes[2] << 16 | (uint32_t)bytes[3] << 24;
}

int main(int argc, char **argv) {
  int raw = 0;
  struct winsize fallback = {24, 80, 0, 0};
  int at = 1;
  while (at < argc && argv[at][0] == '-') {
    if (strcmp(argv[at], "-r") == 0) {
      raw = 1;
      at++;
    } else if (strcmp(argv[at], "-s") == 0 && at + 2 < argc) {
      fallback.ws_row = (unsigned short)atoi(argv[at + 1]);
      fallback.ws_col = (unsigned short)atoi(argv[at + 2]);
      at += 3;
    } else if (strcmp(argv[at], "--") == 0) {
      at++;
      break;
    } else {
      break;
    }
  }
  if (at >= argc) {
    fprintf(stderr, "usage: zor-relay [-r] [-s ROWS COLS] FILE [ARG...]\n");
    return 64;
  }
  terminal_ok = isatty(TERMINAL_FD);

  int master = posix_openpt(O_RDWR | O_NOCTTY);
  if (master < 0 || grantpt(master) != 0 || unlockpt(master) != 0) {
    perror("zor-relay: pty");
    return 71;
  }
  char slave_name[256];
  const char *name = ptsname(master);
  if (name == NULL || strlen(name) >= sizeof slave_name) {
    perror("zor-relay: ptsname");
    return 71;
  }
  strcpy(slave_name, name);
  // Held open until the child is reaped, so the master never reads end-of-file before the child has
  // opened its side, nor loses the tail the kernel still holds when it exits.
  int held_slave = open(slave_name, O_RDWR | O_NOCTTY);
  if (held_slave < 0 || pipe(wake_pipe) != 0) {
    perror("zor-relay: pty");
    return 71;
  }
  fcntl(master, F_SETFD, FD_CLOEXEC);
  fcntl(held_slave, F_SETFD, FD_CLOEXEC);
  fcntl(wake_pipe[0], F_SETFD, FD_CLOEXEC);
  fcntl(wake_pipe[1], F_SETFD, FD_CLOEXEC);
  set_flags(wake_pipe[0], O_NONBLOCK);
  set_flags(wake_pipe[1], O_NONBLOCK);

  for (size_t i = 0; i < sizeof IGNORED / sizeof IGNORED[0]; i++) signal(IGNORED[i], SIG_IGN);
  struct sigaction child_action;
  memset(&child_action, 0, sizeof child_action);
  child_action.sa_handler = on_child;
  child_action.sa_flags = SA_NOCLDSTOP | SA_RESTART;
  sigaction(SIGCHLD, &child_action, NULL);

  if (raw) raw_output();
  struct winsize size = terminal_size(fallback);
  max_rows = size.ws_row;
  pid_t child = fork();
  if (child < 0) {
    perror("zor-relay: fork");
    return 71;
  }
  if (child == 0) child_exec(slave_name, &size, argv + at);
  status_line("start %d %u %u %u %u\n", (int)child, size.ws_row, size.ws_col, size.ws_xpixel, size.ws_ypixel);

  set_flags(master, O_NONBLOCK);
  set_flags(CONTROL_FD, O_NONBLOCK);
  set_flags(COPY_FD, O_NONBLOCK);
#ifdef F_SETPIPE_SZ
  fcntl(COPY_FD, F_SETPIPE_SZ, 1 << 20);
#endif

  static unsigned char buffer[READ_BYTES];
  struct queue copy = {0}, input = {0}, control = {0}, injections = {0};
  int master_open = 1, control_open = 1, copy_open = 1, reaped = 0, exit_code = 0, exit_signal = 0;
  long long copied_at = 0;
  size_t cut_next = CUT_AT_BYTES;

  for (;;) {
    if (reaped && !master_open && copy_open && queue_length(&copy) == 0) {
      close(COPY_FD);
      copy_open = 0;
      status_line("cut %llu\n", cut_bytes);
      status_line("exit %d %d\n", exit_code, exit_signal);
    }
    if (reaped && !master_open && !copy_open && !control_open) break;

    struct pollfd fds[4];
    int count = 0, master_at = -1, control_at = -1, copy_at = -1;
    fds[count++] = (struct pollfd){wake_pipe[0], POLLIN, 0};
    if (master_open) {
      short events = (queue_length(&copy) < COPY_LIMIT ? POLLIN : 0) | (queue_length(&input) > 0 ? POLLOUT : 0);
      master_at = count;
      fds[count++] = (struct pollfd){master, events, 0};
    }
    if (control_open && queue_length(&input) < INPUT_LIMIT) {
      control_at = count;
      fds[count++] = (struct pollfd){CONTROL_FD, POLLIN, 0};
    }
    // Plain text waits a moment for more, so it can be cut; anything else goes at once.
    int held = 0;
    if (copy_open && queue_length(&copy) > 0) {
      long long wait = copied_at + COPY_HOLD_MS - now_ms();
      if (master_open && queue_length(&copy) == run_length && wait > 0) {
        held = (int)wait;
      } else {
        copy_at = count;
        fds[count++] = (struct pollfd){COPY_FD, POLLOUT, 0};
      }
    }
    int timeout = reaped && master_open ? TAIL_IDLE_MS : -1;
    if (held > 0 && (timeout < 0 || held < timeout)) timeout = held;
    int ready = poll(fds, (nfds_t)count, timeout);
    if (ready < 0) {
      if (errno == EINTR) continue;
      perror("zor-relay: poll");
      return 70;
    }
    if (ready == 0 && held > 0) continue;
    if (ready == 0) {
      // The child is gone and its output has stopped: whatever still holds the pty is not its output.
      close(master);
      master_open = 0;
      continue;
    }

    if (fds[0].revents != 0) {
      while (read(wake_pipe[0], buffer, sizeof buffer) > 0) {
      }
      int status;
      if (!reaped && waitpid(child, &status, WNOHANG) == child) {
        reaped = 1;
        if (WIFSIGNALED(status)) exit_code = -1, exit_signal = WTERMSIG(status);
        else exit_code = WEXITSTATUS(status);
        close(held_slave);
      }
    }

    if (master_at >= 0 && fds[master_at].revents != 0) {
      if (fds[master_at].revents & POLLOUT) {
        ssize_t written = write(master, input.data + input.start, queue_length(&input));
        if (written > 0) queue_drop(&input, (size_t)written);
      }
      if (fds[master_at].revents & (POLLIN | POLLHUP | POLLERR)) {
        ssize_t got = read(master, buffer, sizeof buffer);
        // A pty read returns at most the kernel's 4 KiB; take what else is ready, and write it at once.
        while (got > 0 && (size_t)got + 4096 <= sizeof buffer) {
          ssize_t more = read(master, buffer + got, sizeof buffer - (size_t)got);
          if (more <= 0) break;
          got += more;
        }
        if (got > 0) {
          write_out(buffer, (size_t)got);
          scan(buffer, (size_t)got, copy_open ? &copy : NULL);
          if (state == GROUND && queue_length(&injections) > 0) {
            write_out(injections.data + injections.start, queue_length(&injections));
            queue_drop(&injections, queue_length(&injections));
          }
          if (copy_open) {
            if (run_length > cut_next) {
              cut_run(&copy);
              cut_next = run_length > CUT_AT_BYTES / 2 ? 2 * run_length : CUT_AT_BYTES;
            }
          }
        } else if (got == 0 || (errno != EAGAIN && errno != EINTR)) {
          // EIO: every process holding the pty's other side has closed it, and all was read.
          if (reaped) {
            close(master);
            master_open = 0;
          } else if (fds[master_at].revents & POLLHUP) {
            // Not reaped yet but hung up (the slave we hold cannot be closed): wait for SIGCHLD.
            struct pollfd wait = {wake_pipe[0], POLLIN, 0};
            poll(&wait, 1, 10);
          }
        }
      }
    }

    if (copy_at >= 0 && fds[copy_at].revents != 0) {
      cut_run(&copy);
      ssize_t written = write(COPY_FD, copy.data + copy.start, queue_length(&copy));
      if (written > 0) {
        queue_drop(&copy, (size_t)written);
        if (run_length > queue_length(&copy)) run_length = queue_length(&copy);
        if (run_length < CUT_AT_BYTES) cut_next = CUT_AT_BYTES;
        copied_at = now_ms();
      } else if (written < 0 && errno != EAGAIN && errno != EINTR) {
        // zor no longer reads the copy: keep relaying, stop copying.
        close(COPY_FD);
        copy_open = 0;
        queue_drop(&copy, queue_length(&copy));
      }
    }

    if (control_at >= 0 && fds[control_at].revents != 0) {
      ssize_t got = read(CONTROL_FD, buffer, sizeof buffer);
      if (got > 0) {
        queue_push(&control, buffer, (size_t)got);
      } else if (got == 0 || (errno != EAGAIN && errno != EINTR)) {
        control_open = 0;
        // zor has finished, or died: a child still running loses its terminal, as when one closes.
        if (!reaped) kill(child, SIGHUP);
      }
      while (queue_length(&control) >= 5) {
        const unsigned char *message = control.data + control.start;
        uint32_t length = read_u32(message + 1);
        if (queue_length(&control) < 5 + (size_t)length) break;
        const unsigned char *payload = message + 5;
        switch (message[0]) {
        case 'i':
          if (master_open) {
            queue_push(&input, payload, length);
            ssize_t written = write(master, input.data + input.start, queue_length(&input));
            if (written > 0) queue_drop(&input, (size_t)written);
          }
          break;
        case 'j':
          if (state == GROUND) write_out(payload, length);
          else queue_push(&injections, payload, length);
          break;
        case 'w':
          size = terminal_size(size);
          if (size.ws_row > max_rows) max_rows = size.ws_row;
          if (master_open) ioctl(master, TIOCSWINSZ, &size);
          status_line("size %u %u %u %u\n", size.ws_row, size.ws_col, size.ws_xpixel, size.ws_ypixel);
          break;
        case 'k':
          if (!reaped && length == 4) kill(child, (int)read_u32(payload));
          break;
        case 'o':
          raw_output();
          break;
        default:
          break;
        }
        queue_drop(&control, 5 + (size_t)length);
      }
    }
  }
  return 0;
}
