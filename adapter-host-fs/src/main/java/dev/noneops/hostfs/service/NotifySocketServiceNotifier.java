package dev.noneops.hostfs.service;

import dev.noneops.hostfs.nativeio.UnixDatagrams;
import dev.noneops.ports.Errno;
import dev.noneops.ports.HostIOException;
import dev.noneops.ports.service.ServiceNotifier;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The {@link ServiceNotifier} port as {@code sd_notify(3)}: every message is one datagram sent
 * over a fresh {@code AF_UNIX} datagram socket to {@code $NOTIFY_SOCKET}, a file system path or,
 * with a leading {@code @}, an abstract name. The environment is read once, when the notifier is
 * made; the C library is bound on the first message, and never when no manager listens.
 */
public final class NotifySocketServiceNotifier implements ServiceNotifier {

  static final String NOTIFY_SOCKET = "NOTIFY_SOCKET";
  static final String WATCHDOG_USEC = "WATCHDOG_USEC";
  static final String WATCHDOG_PID = "WATCHDOG_PID";

  private final Optional<String> socket;
  private final Optional<Duration> watchdog;
  private final Supplier<UnixDatagrams> datagrams;
  private volatile UnixDatagrams bound;

  NotifySocketServiceNotifier(
      Map<String, String> environment, long pid, Supplier<UnixDatagrams> datagrams) {
    Objects.requireNonNull(environment, "environment");
    this.socket = Optional.ofNullable(environment.get(NOTIFY_SOCKET));
    this.watchdog = watchdogOf(environment, pid);
    this.datagrams = Objects.requireNonNull(datagrams, "datagrams");
  }

  /** The notifier of this process, started with {@code environment} (usually {@code System.getenv()}). */
  public static NotifySocketServiceNotifier fromEnvironment(Map<String, String> environment) {
    // a lambda rather than a method reference: UnixDatagrams is not even linked until one runs
    return new NotifySocketServiceNotifier(
        environment, ProcessHandle.current().pid(), () -> UnixDatagrams.load());
  }

  @Override
  public boolean enabled() {
    return socket.isPresent();
  }

  @Override
  public void ready() throws IOException {
    send("READY", "READY=1");
  }

  @Override
  public void reloading() throws IOException {
    if (socket.isPresent()) {
      send("RELOADING", "RELOADING=1\nMONOTONIC_USEC=" + datagrams().monotonicMicros());
    }
  }

  @Override
  public void stopping() throws IOException {
    send("STOPPING", "STOPPING=1");
  }

  @Override
  public void status(String line) throws IOException {
    send("STATUS", "STATUS=" + StatusLine.require(line));
  }

  @Override
  public void watchdog() throws IOException {
    send("WATCHDOG", "WATCHDOG=1");
  }

  @Override
  public Optional<Duration> watchdogInterval() {
    return watchdog;
  }

  private void send(String what, String message) throws IOException {
    if (socket.isEmpty()) {
      return;
    }
    String target = socket.get();
    String operation = "notify " + what;
    byte[] address = addressOf(target)
        .orElseThrow(() -> new HostIOException(
            Errno.EINVAL,
            operation,
            target,
            "NOTIFY_SOCKET is neither an absolute path nor an abstract @name of at most "
                + (UnixDatagrams.MAX_ADDRESS - 1) + " bytes",
            null));
    datagrams().send(address, message.getBytes(StandardCharsets.UTF_8), operation, target);
  }

  private UnixDatagrams datagrams() {
    UnixDatagrams d = bound;
    if (d == null) {
      synchronized (this) {
        d = bound;
        if (d == null) {
          d = Objects.requireNonNull(datagrams.get(), "datagrams");
          bound = d;
        }
      }
    }
    return d;
  }

  /** The {@code sun_path} bytes for a {@code NOTIFY_SOCKET} value; empty when sd_notify refuses it (EINVAL). */
  static Optional<byte[]> addressOf(String socket) {
    byte[] bytes = socket.getBytes(StandardCharsets.UTF_8);
    if (bytes.length < 2 || (bytes[0] != '/' && bytes[0] != '@')) {
      return Optional.empty();
    }
    boolean abstractName = bytes[0] == '@';
    if (abstractName) {
      bytes[0] = 0;
    }
    // a path needs room for its terminating NUL; an abstract name is exactly its bytes
    int length = bytes.length + (abstractName ? 0 : 1);
    return length > UnixDatagrams.MAX_ADDRESS ? Optional.empty() : Optional.of(bytes);
  }

  /** {@code sd_watchdog_enabled}: the interval when WATCHDOG_USEC is a positive number and WATCHDOG_PID, if set, is {@code pid}. */
  static Optional<Duration> watchdogOf(Map<String, String> environment, long pid) {
    String usec = environment.get(WATCHDOG_USEC);
    if (usec == null) {
      return Optional.empty();
    }
    String watched = environment.get(WATCHDOG_PID);
    try {
      if (watched != null && Long.parseLong(watched) != pid) {
        return Optional.empty();
      }
      long micros = Long.parseLong(usec);
      return micros > 0
          ? Optional.of(Duration.ofNanos(Math.multiplyExact(micros, 1000L)))
          : Optional.empty();
    } catch (NumberFormatException | ArithmeticException e) {
      // sd_watchdog_enabled reports EINVAL; no valid interval means no watchdog to serve
      return Optional.empty();
    }
  }
}
