package dev.noneops.hostfs.nativeio;

import dev.noneops.ports.HostIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import jnr.constants.platform.AddressFamily;
import jnr.constants.platform.Sock;
import jnr.ffi.LibraryLoader;
import jnr.ffi.Runtime;

/**
 * Sends one datagram over a fresh {@code AF_UNIX}, {@code SOCK_DGRAM}, close-on-exec socket to a
 * socket address, as {@code sd_notify(3)} does for every message, and reads
 * {@code CLOCK_MONOTONIC}; each failure is a {@link HostIOException} with the kernel's errno.
 */
public final class UnixDatagrams {

  /** {@code sizeof(sun_path)} on Linux. */
  public static final int MAX_ADDRESS = 108;

  /** {@code SOCK_CLOEXEC} (as {@code O_CLOEXEC}) on x86-64 and arm64 Linux; jnr-constants lacks it. */
  private static final int SOCK_CLOEXEC = 0x80000;
  /** {@code MSG_NOSIGNAL}: a failed send is an errno, never a SIGPIPE. */
  private static final int MSG_NOSIGNAL = 0x4000;

  private static final int CLOCK_MONOTONIC = 1;
  /** {@code offsetof(struct sockaddr_un, sun_path)}: the {@code sa_family_t} before it. */
  private static final int PATH_OFFSET = 2;

  private final LibcDatagrams libc;
  private final Runtime runtime;
  private final Syscalls syscalls;

  private UnixDatagrams(LibcDatagrams libc, Syscalls syscalls) {
    this.libc = libc;
    this.runtime = Runtime.getRuntime(libc);
    this.syscalls = syscalls;
  }

  /** Binds libc; fails loudly when the native library cannot be loaded. */
  public static UnixDatagrams load() {
    Syscalls syscalls = Syscalls.load();
    LibcDatagrams libc = LibraryLoader.create(LibcDatagrams.class).load("c");
    return new UnixDatagrams(libc, syscalls);
  }

  /**
   * Sends {@code payload} to the socket whose {@code sun_path} is {@code address}: a file system
   * path (sent with its terminating NUL) or, starting with a NUL byte, an abstract name (sent
   * exactly, its length being part of the name). {@code operation} and {@code target} name the
   * send in an error.
   */
  public void send(byte[] address, byte[] payload, String operation, String target)
      throws HostIOException {
    boolean abstractName = address.length > 0 && address[0] == 0;
    int length = address.length + (abstractName ? 0 : 1);
    if (address.length == 0 || length > MAX_ADDRESS) {
      throw new IllegalArgumentException(
          "a unix socket address has 1 to " + MAX_ADDRESS + " bytes: " + target);
    }
    ByteBuffer sockaddr =
        ByteBuffer.allocate(PATH_OFFSET + MAX_ADDRESS).order(ByteOrder.nativeOrder());
    sockaddr.putShort((short) AddressFamily.AF_UNIX.intValue()).put(address);
    int fd =
        libc.socket(AddressFamily.AF_UNIX.intValue(), Sock.SOCK_DGRAM.intValue() | SOCK_CLOEXEC, 0);
    if (fd < 0) {
      throw syscalls.failure(runtime.getLastError(), "socket", target);
    }
    try {
      long sent = libc.sendto(
          fd, payload, payload.length, MSG_NOSIGNAL, sockaddr.array(), PATH_OFFSET + length);
      if (sent < 0) {
        throw syscalls.failure(runtime.getLastError(), operation, target);
      }
    } finally {
      libc.close(fd);
    }
  }

  /** {@code CLOCK_MONOTONIC} now, in microseconds (the clock systemd's {@code MONOTONIC_USEC=} is on). */
  public long monotonicMicros() throws HostIOException {
    long[] timespec = new long[2];
    if (libc.clock_gettime(CLOCK_MONOTONIC, timespec) != 0) {
      throw syscalls.failure(runtime.getLastError(), "clock_gettime", "CLOCK_MONOTONIC");
    }
    return timespec[0] * 1_000_000L + timespec[1] / 1_000L;
  }
}
