/*
 * pane-holder: the owner of one fux pane's pty and process, so that the pane outlives the server
 * (issue 27). The server starts one holder per pane; the holder opens the pty, starts the pane's
 * program on it in a new session, and listens on a unix socket of its own. A server that connects
 * is handed the pty's master fd (SCM_RIGHTS, received by native/pane-fd.c) and reads and writes it
 * itself, exactly as it reads a node-pty master, so the output path is today's (docs/benchmarks.md,
 * "Panes that outlive the server"). While no server holds the fd, the holder reads the pty itself
 * into a bounded buffer, so the program never blocks on a full pty; the next server gets that
 * buffer right after the fd.
 *
 * One holder per pane rather than one per workspace: a holder is ~100 KiB resident, its life is
 * its pane's, and a crash of one holder loses one pane, not a workspace.
 *
 * Usage: pane-holder SOCKET KEY ROWS COLS CWD FILE [ARG...]
 *   The program's environment is the holder's. The process started forks the holder proper (a
 *   daemon in its own session) and exits once it listens and the program has started, after
 *   writing `PID PTSNAME\n` on stdout (or `error MESSAGE\n`, exit status 1). So the server can
 *   start it synchronously (spawnSync), as it spawns a node-pty, and connect at once.
 *
 * A connection (the peer must be of the holder's uid; anything else is closed at once) first gets
 * a header of HEADER_BYTES with the master fd attached:
 *   `fux-holder 1 KEY PID BUFFERED DROPPED EXITED CODE SIGNAL PTSNAME\n`, space-padded
 * then the BUFFERED bytes read while no server held the pty (DROPPED older ones did not fit), then
 * lines: `exit CODE SIGNAL\n` once the program has been reaped (SIGNAL 0 for a normal exit).
 * The server sends lines: `kill SIGNAL\n` signals the program; `end\n` hangs the pane up (SIGHUP
 * to the program, the holder's side of the pty closed) and the holder exits once the program has.
 * When the connection closes without `end`, the holder reads the pty again; if the program's exit
 * has been sent, the status is collected and the holder exits.
 */
#if defined(__linux__)
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#define HEADER_BYTES 512
/** Output kept while no server holds the pty: the newest bytes, enough for several screens and more. */
#define BUFFER_LIMIT (1u << 20)
#define READ_BYTES 65536
/** After `end`, how long to wait for the program to go before leaving it to init. */
#define END_WAIT_MS 3000

/* ---- the buffer of output read while no server holds the pty: a ring of the newest bytes ---- */

static unsigned char *ring;
static size_t ring_start = 0, ring_length = 0;
static unsigned long long dropped = 0;

static void ring_push(const unsigned char *bytes, size_t length) {
  if (length >= BUFFER_LIMIT) {
    dropped += ring_length + (length - BUFFER_LIMIT);
    bytes += length - BUFFER_LIMIT;
    length = BUFFER_LIMIT;
    ring_start = 0;
    ring_length = 0;
  }
  size_t overflow = ring_length + length > BUFFER_LIMIT ? ring_length + length - BUFFER_LIMIT : 0;
  ring_start = (ring_start + overflow) % BUFFER_LIMIT;
  ring_length -= overflow;
  dropped += overflow;
  for (size_t done = 0; done < length;) {
    size_t at = (ring_start + ring_length) % BUFFER_LIMIT;
    size_t run = BUFFER_LIMIT - at < length - done ? BUFFER_LIMIT - at : length - done;
    memcpy(ring + at, bytes + done, run);
    ring_length += run;
    done += run;
  }
}

/* ---- the program on its pty: the modes node-pty gives a pty, so a pane behaves as before ---- */

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
  cfsetispeed(modes, B38400);
  cfsetospeed(modes, B38400);
}

static void child_exec(const char *slave_name, const struct winsize *size, const char *cwd, char **argv) {
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
  for (int sig = 1; sig < NSIG; sig++) signal(sig, SIG_DFL);
  sigset_t none;
  sigemptyset(&none);
  sigprocmask(SIG_SETMASK, &none, NULL);
  if (chdir(cwd) != 0) {
    fprintf(stderr, "fux: cannot use directory %s: %s\r\n", cwd, strerror(errno));
    _exit(126);
  }
  execvp(argv[0], argv);
  fprintf(stderr, "fux: cannot run %s: %s\r\n", argv[0], strerror(errno));
  _exit(errno == ENOENT ? 127 : 126);
}

/* ---- signals: a child's exit and a request to stop wake the poll through a pipe ---- */

static int wake_pipe[2];
static volatile sig_atomic_t terminated = 0;

static void on_signal(int signal_number) {
  int saved = errno;
  if (signal_number == SIGTERM) terminated = 1;
  ssize_t ignored = write(wake_pipe[1], "w", 1);
  (void)ignored;
  errno = saved;
}

static void set_flags(int fd, int flags) { fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | flags); }

static int same_user(int fd) {
#if defined(SO_PEERCRED)
  struct ucred cred;
  socklen_t len = sizeof cred;
  return getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) == 0 && cred.uid == getuid();
#else
  uid_t uid;
  gid_t gid;
  return getpeereid(fd, &uid, &gid) == 0 && uid == getuid();
#endif
}

/** Write all of `bytes` to a connection, waiting while it is full; 0 when it has gone. */
static int send_all(int fd, const void *bytes, size_t length) {
  const unsigned char *at = bytes;
  while (length > 0) {
    ssize_t n = send(fd, at, length, MSG_NOSIGNAL);
    if (n > 0) {
      at += n;
      length -= (size_t)n;
    } else if (n < 0 && (errno == EAGAIN || errno == EINTR)) {
      struct pollfd out = {fd, POLLOUT, 0};
      if (poll(&out, 1, 1000) == 0) return 0; // a server that takes nothing for a second has hung
    } else {
      return 0;
    }
  }
  return 1;
}

/** Where the daemon tells the process that started it how the start went. */
static int ready_fd = -1;

static void say(const char *line) {
  ssize_t ignored = write(ready_fd, line, strlen(line));
  (void)ignored;
}

/**
 * Fork the daemon; the starting process passes on its one line and exits, 0 when it named a pid.
 * Only the daemon returns.
 */
static void daemonize(void) {
  int ready[2];
  if (pipe(ready) != 0) {
    perror("pane-holder: pipe");
    exit(71);
  }
  pid_t daemon = fork();
  if (daemon < 0) {
    perror("pane-holder: fork");
    exit(71);
  }
  if (daemon == 0) {
    close(ready[0]);
    ready_fd = ready[1];
    fcntl(ready_fd, F_SETFD, FD_CLOEXEC);
    setsid();
    return;
  }
  close(ready[1]);
  char line[600];
  size_t length = 0;
  ssize_t n;
  while (length < sizeof line - 1 && (n = read(ready[0], line + length, sizeof line - 1 - length)) != 0) {
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) break;
    length += (size_t)n;
  }
  line[length] = '\0';
  ssize_t ignored = write(STDOUT_FILENO, line, length);
  (void)ignored;
  // The daemon is not this process's to wait for: it belongs to init from here.
  exit(length > 0 && line[0] != 'e' ? 0 : 1);
}

static long long now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

int main(int argc, char **argv) {
  if (argc < 7) {
    fprintf(stderr, "usage: pane-holder SOCKET KEY ROWS COLS CWD FILE [ARG...]\n");
    return 64;
  }
  const char *socket_path = argv[1];
  const char *key = argv[2];
  struct winsize size = {(unsigned short)atoi(argv[3]), (unsigned short)atoi(argv[4]), 0, 0};
  const char *cwd = argv[5];
  char error[512];
  ring = malloc(BUFFER_LIMIT);
  if (ring == NULL) return 71;
  // Its own session, not the server's child: a signal to the server's process group (a ^C in
  // `fux serve`) is not for panes, and the server's death leaves the holder running.
  daemonize();
  umask(077);

  struct sockaddr_un address = {0};
  address.sun_family = AF_UNIX;
  if (strlen(socket_path) >= sizeof address.sun_path) {
    snprintf(error, sizeof error, "error the holder socket path is too long: %s\n", socket_path);
    say(error);
    return 1;
  }
  strcpy(address.sun_path, socket_path);
  int listener = socket(AF_UNIX, SOCK_STREAM, 0);
  if (listener < 0 || bind(listener, (struct sockaddr *)&address, sizeof address) != 0 || listen(listener, 4) != 0 ||
      chmod(socket_path, 0600) != 0) {
    snprintf(error, sizeof error, "error cannot listen on %s: %s\n", socket_path, strerror(errno));
    say(error);
    return 1;
  }

  int master = posix_openpt(O_RDWR | O_NOCTTY);
  const char *name = master < 0 || grantpt(master) != 0 || unlockpt(master) != 0 ? NULL : ptsname(master);
  char slave_name[256];
  if (name == NULL || strlen(name) >= sizeof slave_name) {
    snprintf(error, sizeof error, "error cannot open a pty: %s\n", strerror(errno));
    say(error);
    unlink(socket_path);
    return 1;
  }
  strcpy(slave_name, name);
  // Held open until the program is reaped, so the master never reads its end before the program
  // has opened its side, nor after it exits while the kernel still holds its last output.
  int held_slave = open(slave_name, O_RDWR | O_NOCTTY);
  if (held_slave < 0 || pipe(wake_pipe) != 0) {
    snprintf(error, sizeof error, "error cannot open a pty: %s\n", strerror(errno));
    say(error);
    unlink(socket_path);
    return 1;
  }
  int inherited[] = {listener, master, held_slave, wake_pipe[0], wake_pipe[1]};
  for (size_t i = 0; i < sizeof inherited / sizeof inherited[0]; i++) fcntl(inherited[i], F_SETFD, FD_CLOEXEC);
  set_flags(wake_pipe[0], O_NONBLOCK);
  set_flags(wake_pipe[1], O_NONBLOCK);
  set_flags(listener, O_NONBLOCK);
  // The server reads the master as node-pty's does: non-blocking (the flag travels with the fd).
  set_flags(master, O_NONBLOCK);

  signal(SIGPIPE, SIG_IGN);
  signal(SIGHUP, SIG_IGN);
  signal(SIGINT, SIG_IGN);
  struct sigaction action;
  memset(&action, 0, sizeof action);
  action.sa_handler = on_signal;
  action.sa_flags = SA_NOCLDSTOP | SA_RESTART;
  sigaction(SIGCHLD, &action, NULL);
  sigaction(SIGTERM, &action, NULL);

  pid_t child = fork();
  if (child < 0) {
    snprintf(error, sizeof error, "error cannot fork: %s\n", strerror(errno));
    say(error);
    unlink(socket_path);
    return 1;
  }
  if (child == 0) child_exec(slave_name, &size, cwd, argv + 6);
  snprintf(error, sizeof error, "%d %s\n", (int)child, slave_name);
  say(error);
  close(ready_fd);
  // Nothing of the server's is kept: its pipes would keep it waiting for an end that never comes.
  int null = open("/dev/null", O_RDWR);
  if (null >= 0) {
    dup2(null, 0);
    dup2(null, 1);
    dup2(null, 2);
    if (null > 2) close(null);
  }

  static unsigned char buffer[READ_BYTES];
  char line[256];
  size_t line_length = 0;
  int connection = -1, exit_sent = 0, reaped = 0, master_open = 1, ending = 0;
  int exit_code = 0, exit_signal = 0;
  long long end_deadline = 0;

  for (;;) {
    if (terminated && !ending) {
      ending = 1;
      end_deadline = now_ms() + END_WAIT_MS;
      if (!reaped) kill(child, SIGHUP);
    }
    if (ending && (reaped || now_ms() >= end_deadline)) break;
    if (reaped && exit_sent && connection < 0) break;

    struct pollfd fds[4];
    int count = 0;
    fds[count++] = (struct pollfd){wake_pipe[0], POLLIN, 0};
    int listener_at = count;
    fds[count++] = (struct pollfd){listener, POLLIN, 0};
    int connection_at = connection >= 0 ? count : -1;
    if (connection >= 0) fds[count++] = (struct pollfd){connection, POLLIN, 0};
    // The holder reads the pty only while no server does.
    int master_at = connection < 0 && master_open && !ending ? count : -1;
    if (master_at >= 0) fds[count++] = (struct pollfd){master, POLLIN, 0};
    int timeout = ending ? (int)(end_deadline - now_ms()) : -1;
    if (poll(fds, (nfds_t)count, timeout < 0 && ending ? 0 : timeout) < 0) {
      if (errno == EINTR) continue;
      break;
    }

    if (fds[0].revents & POLLIN) {
      while (read(wake_pipe[0], buffer, sizeof buffer) > 0) {
      }
      int status;
      if (!reaped && waitpid(child, &status, WNOHANG) == child) {
        reaped = 1;
        exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
        exit_signal = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
        // The program's side may close now: the master reads its end once its output is read.
        close(held_slave);
        held_slave = -1;
        if (connection >= 0) {
          int n = snprintf(line, sizeof line, "exit %d %d\n", exit_code, exit_signal);
          if (send_all(connection, line, (size_t)n)) exit_sent = 1;
        }
      }
    }

    if (fds[listener_at].revents & POLLIN) {
      int accepted = accept(listener, NULL, NULL);
      // One server at a time; and never one of another user (the directory is 0700 as well).
      if (accepted >= 0 && (connection >= 0 || ending || !same_user(accepted))) {
        close(accepted);
      } else if (accepted >= 0) {
        fcntl(accepted, F_SETFD, FD_CLOEXEC);
        set_flags(accepted, O_NONBLOCK);
        char header[HEADER_BYTES];
        memset(header, ' ', sizeof header);
        int n = snprintf(header, sizeof header, "fux-holder 1 %s %d %zu %llu %d %d %d %s", key, (int)child, ring_length,
                         dropped, reaped, exit_code, exit_signal, slave_name);
        if (n > 0 && (size_t)n < sizeof header) header[n] = ' ';
        header[sizeof header - 1] = '\n';
        struct iovec io = {header, sizeof header};
        union {
          struct cmsghdr align;
          char bytes[CMSG_SPACE(sizeof(int))];
        } control;
        memset(&control, 0, sizeof control);
        struct msghdr message = {0};
        message.msg_iov = &io;
        message.msg_iovlen = 1;
        message.msg_control = control.bytes;
        message.msg_controllen = sizeof control.bytes;
        struct cmsghdr *cmsg = CMSG_FIRSTHDR(&message);
        cmsg->cmsg_level = SOL_SOCKET;
        cmsg->cmsg_type = SCM_RIGHTS;
        cmsg->cmsg_len = CMSG_LEN(sizeof(int));
        memcpy(CMSG_DATA(cmsg), &master, sizeof(int));
        // The header fits a fresh connection's buffer, so one sendmsg sends it whole.
        int ok = sendmsg(accepted, &message, MSG_NOSIGNAL) == (ssize_t)sizeof header;
        size_t first = ring_length < BUFFER_LIMIT - ring_start ? ring_length : BUFFER_LIMIT - ring_start;
        ok = ok && send_all(accepted, ring + ring_start, first) &&
             send_all(accepted, ring, ring_length - first);
        if (ok && reaped) {
          n = snprintf(line, sizeof line, "exit %d %d\n", exit_code, exit_signal);
          ok = send_all(accepted, line, (size_t)n);
          exit_sent = ok;
        }
        if (ok) {
          connection = accepted;
          ring_start = 0;
          ring_length = 0;
          dropped = 0;
          line_length = 0;
        } else {
          close(accepted);
        }
      }
    }

    if (connection_at >= 0 && fds[connection_at].revents) {
      ssize_t n = read(connection, buffer, sizeof buffer);
      if (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR)) {
        // The server has gone (or let go): read the pty again until the next one comes.
        close(connection);
        connection = -1;
      }
      for (ssize_t i = 0; i < n; i++) {
        if (buffer[i] != '\n') {
          if (line_length < sizeof line - 1) line[line_length++] = (char)buffer[i];
          continue;
        }
        line[line_length] = '\0';
        line_length = 0;
        int signal_number;
        if (sscanf(line, "kill %d", &signal_number) == 1) {
          if (!reaped && signal_number > 0 && signal_number < NSIG) kill(child, signal_number);
        } else if (strcmp(line, "end") == 0) {
          terminated = 1;
          close(master);
          master_open = 0;
        }
      }
    }

    // Not once a server has been handed the pty in this same turn: what it reads is its own.
    if (master_at >= 0 && connection < 0 && fds[master_at].revents) {
      ssize_t n = read(master, buffer, sizeof buffer);
      if (n > 0) {
        ring_push(buffer, (size_t)n);
      } else if (n == 0 || (errno != EAGAIN && errno != EINTR)) {
        // EIO: the program and everything it started have closed the pty; its output is all read.
        master_open = 0;
      }
    }
  }
  unlink(socket_path);
  return reaped ? 0 : 1;
}
